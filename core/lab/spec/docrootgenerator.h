// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

namespace servelab::lab {

// Fills a folder with the files an experiment serves: for each size, `copies` files named
// "<size>.bin", "<size>-1.bin", … (4K.bin, 4K-1.bin, 1M.bin). Their bytes are either a fixed
// pseudo-random sequence seeded by the size and copy (incompressible, the same on every machine,
// so a client can check bodies and two runs serve identical data) or zeros (what compresses and
// what a sparse file would serve).
class DocRootGenerator
{
public:
    enum class Content
    {
        Random,
        Zeros
    };
    static QString fileNameFor(quint64 size, int copy = 0);
    // Writes the files that are missing, of the wrong size or of the other content (their first
    // 4 KiB are compared), each atomically.
    static bool ensure(const QString &dir, const QList<quint64> &sizes, QString *error,
                       Content content = Content::Random, int copies = 1);
    // For a folder ServeLab must not write: true if every file is there with its size; otherwise
    // *error names the first one missing.
    static bool check(const QString &dir, const QList<quint64> &sizes, QString *error,
                      int copies = 1);
    // The bytes of `fileNameFor(size, copy)`, for tests and body checks.
    static QByteArray contentFor(quint64 size, Content content = Content::Random, int copy = 0);
    static QString contentName(Content content);
    static bool parseContent(const QString &name, Content *content);
};

} // namespace servelab::lab
