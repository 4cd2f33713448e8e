#pragma once

#include <QList>
#include <QString>

namespace servelab::lab {

// Fills a folder with one file per size, named "<size>.bin" (4K.bin, 1M.bin), whose bytes are
// a fixed pseudo-random sequence seeded by the size: incompressible, and the same on every
// machine, so a client can check bodies and two runs serve identical data.
class DocRootGenerator
{
public:
    static QString fileNameFor(quint64 size);
    // Writes the files that are missing or of the wrong size, each atomically.
    static bool ensure(const QString &dir, const QList<quint64> &sizes, QString *error);
    // The bytes of `fileNameFor(size)`, for tests and body checks.
    static QByteArray contentFor(quint64 size);
};

} // namespace servelab::lab
