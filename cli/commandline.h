// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCommandLineParser>
#include <QString>

class QTextStream;

namespace servelab::lab {
struct SpecField;
}

namespace servelab::cli {

// QCommandLineParser plus the checks every command repeats: one-line errors naming the
// command, and whole numbers within bounds.
class CommandLine
{
public:
    CommandLine(const QString &command, const QString &description);

    QCommandLineParser &parser() { return m_parser; }
    // Parses; on --help prints help to out and returns false with *exitCode 0; on a bad
    // argument prints one line to err and returns false with *exitCode 2.
    bool parse(const QStringList &arguments, QTextStream &out, QTextStream &err, int *exitCode);
    // The same for a command that takes options only: an argument left over is a usage error
    // ("unexpected argument 'x'").
    bool parseOptions(const QStringList &arguments, QTextStream &out, QTextStream &err,
                      int *exitCode);
    // The value of `option` as a whole number in [min, max]; false after printing a line.
    bool number(const QString &option, qint64 min, qint64 max, qint64 *value, QTextStream &err);
    // The value of the field's flag, within the field's range (lab/specfield.h).
    bool number(const lab::SpecField &field, qint64 *value, QTextStream &err);
    // A size like 8K or 81000, within [min, max] bytes.
    bool size(const QString &option, quint64 min, quint64 max, quint64 *bytes, QTextStream &err);
    // A duration: "500ms", "5s" or plain seconds ("2.5"); at least 1 ms, at most maxMs.
    bool duration(const QString &option, qint64 maxMs, int *ms, QTextStream &err);
    // "on"/"off" (also yes/no, true/false, 1/0).
    bool onOff(const QString &option, bool *value, QTextStream &err);
    int usageError(const QString &message, QTextStream &err) const;

    // The results database's options, declared once for every command that keeps or reads
    // runs: --db FILE (`purpose` says what for, the default path follows) and, where a run
    // may go unkept, --no-db. Before parse().
    enum class Keeping
    {
        Required,
        Optional // --no-db too
    };
    void addDatabaseOptions(const QString &purpose, Keeping keeping = Keeping::Required);
    // After parse(): --db or the default path; empty with --no-db.
    QString database() const;

private:
    bool checked(const QString &option, bool ok, const QString &error, QTextStream &err);

    QString m_command;
    QCommandLineParser m_parser;
    bool m_mayGoUnkept = false; // --no-db declared
};

} // namespace servelab::cli
