// SPDX-License-Identifier: Apache-2.0
#include "conformancetable.h"

#include <QDir>
#include <QFile>

namespace servelab::conformance {

QByteArray unescape(const QString &text, QString *error)
{
    const QByteArray in = text.toUtf8();
    QByteArray out;
    for (qsizetype i = 0; i < in.size(); ++i) {
        if (in[i] != '\\') {
            out += in[i];
            continue;
        }
        if (i + 1 >= in.size()) {
            *error = QStringLiteral("a lone \\ at the end");
            return {};
        }
        const char e = in[++i];
        if (e == 'r' || e == 'n' || e == 't' || e == '\\') {
            out += e == 'r' ? '\r' : e == 'n' ? '\n' : e == 't' ? '\t' : '\\';
        } else if (e == 'x' && i + 2 < in.size()) {
            bool ok = false;
            const int byte = in.mid(i + 1, 2).toInt(&ok, 16);
            if (!ok) {
                *error = QStringLiteral("\\x wants two hex digits");
                return {};
            }
            out += char(byte);
            i += 2;
        } else if (e == '*') { // \*N:C; — N copies of C
            const qsizetype colon = in.indexOf(':', i);
            const qsizetype end = colon < 0 ? -1 : in.indexOf(';', colon);
            bool ok = false;
            const int count = colon < 0 ? 0 : in.mid(i + 1, colon - i - 1).toInt(&ok);
            if (!ok || end != colon + 2 || count <= 0) {
                *error = QStringLiteral("\\* wants \\*N:C; (N copies of the character C)");
                return {};
            }
            out += QByteArray(count, in[colon + 1]);
            i = end;
        } else {
            *error = QStringLiteral("unknown escape \\%1").arg(QLatin1Char(e));
            return {};
        }
    }
    return out;
}

QList<Case> load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    QList<Case> cases;
    int number = 0;
    while (!file.atEnd()) {
        ++number;
        QString line = QString::fromUtf8(file.readLine());
        if (line.endsWith(u'\n'))
            line.chop(1); // only the line's end: a request may end in a space
        if (line.trimmed().isEmpty() || line.startsWith(u'#'))
            continue;
        const QStringList columns = line.split(u'\t');
        const auto bad = [&](const QString &why) {
            *error = QStringLiteral("%1:%2: %3").arg(path).arg(number).arg(why);
            return QList<Case>();
        };
        if (columns.size() != 4)
            return bad(QStringLiteral("wants 4 tab-separated columns, has %1").arg(columns.size()));
        Case c;
        c.name = columns[0];
        bool ok = false;
        c.status = columns[1] == u"none" ? 0 : columns[1].toInt(&ok);
        if (columns[1] != u"none" && (!ok || c.status < 100 || c.status > 599))
            return bad(QStringLiteral("status '%1' is not a status code or none").arg(columns[1]));
        if (columns[2] != u"open" && columns[2] != u"close")
            return bad(QStringLiteral("after is open or close, not '%1'").arg(columns[2]));
        c.staysOpen = columns[2] == u"open";
        QString why;
        c.bytes = unescape(columns[3], &why);
        if (c.bytes.isEmpty())
            return bad(why.isEmpty() ? QStringLiteral("no request bytes") : why);
        for (const Case &other : cases)
            if (other.name == c.name)
                return bad(QStringLiteral("the name %1 is taken").arg(c.name));
        cases << c;
    }
    if (cases.isEmpty())
        *error = QStringLiteral("%1 has no cases").arg(path);
    return cases;
}

bool makeRoot(const QString &dir, QString *error)
{
    const QDir root(dir);
    const auto write = [&](const QString &name, const QByteArray &bytes) {
        QFile file(root.filePath(name));
        if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size())
            return true;
        *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
        return false;
    };
    if (!root.mkpath(QStringLiteral("dir")) || !root.mkpath(QStringLiteral("empty"))) {
        *error = QStringLiteral("cannot make folders in %1").arg(dir);
        return false;
    }
    if (!write(QStringLiteral("4K.bin"), QByteArray(4096, 'x')) ||
        !write(QStringLiteral("index.html"), "<h1>root</h1>\n") ||
        !write(QStringLiteral("a b.txt"), "space\n") ||
        !write(QStringLiteral("%41.txt"), "percent\n") ||
        !write(QStringLiteral("dir/index.html"), "<h1>dir</h1>\n"))
        return false;
    for (const auto &[link, target] :
         {std::pair{QStringLiteral("in-link.bin"), QStringLiteral("4K.bin")},
          std::pair{QStringLiteral("out"), QStringLiteral("/etc")},
          std::pair{QStringLiteral("out.txt"), QStringLiteral("/etc/hostname")}}) {
        if (!QFile::link(target, root.filePath(link))) {
            *error = QStringLiteral("cannot make the symlink %1").arg(root.filePath(link));
            return false;
        }
    }
    return true;
}

} // namespace servelab::conformance
