// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// The conformance table's reader (tests/conformance/requests.table; its header says the
// format), shared by tst_conformance and the fuzz harnesses' seed corpus.
namespace servelab::conformance {

struct Case
{
    QString name;
    int status = 0;
    bool staysOpen = false;
    QByteArray bytes;
};

// Every case, or none with *error naming the line and what is wrong with it.
QList<Case> load(const QString &path, QString *error);
// The escapes of the request column undone (\r \n \t \\ \xHH \*N:C;), or *error set.
QByteArray unescape(const QString &text, QString *error);
// The document root the table expects, made in `dir`.
bool makeRoot(const QString &dir, QString *error);

} // namespace servelab::conformance
