// SPDX-License-Identifier: Apache-2.0
#include "commandline.h"

#include "cli.h"

#include "lab/results/resultstore.h"
#include "lab/spec/optionvalue.h"
#include "lab/spec/specfield.h"

#include <QTextStream>

namespace servelab::cli {

namespace {
QString flagOf(const QString &option)
{
    return option.size() == 1 ? u'-' + option : QStringLiteral("--") + option;
}
} // namespace

CommandLine::CommandLine(const QString &command, const QString &description) : m_command(command)
{
    m_parser.setApplicationDescription(description);
    m_parser.addHelpOption();
}

void CommandLine::addDatabaseOptions(const QString &purpose, Keeping keeping)
{
    m_parser.addOption(
        {QStringLiteral("db"),
         QStringLiteral("%1 (default: %2).").arg(purpose, lab::ResultStore::defaultPath()),
         QStringLiteral("file")});
    m_mayGoUnkept = keeping == Keeping::Optional;
    if (m_mayGoUnkept)
        m_parser.addOption(
            {QStringLiteral("no-db"), QStringLiteral("Do not keep the run in a database.")});
}

QString CommandLine::database() const
{
    if (m_mayGoUnkept && m_parser.isSet(QStringLiteral("no-db")))
        return {};
    return m_parser.isSet(QStringLiteral("db")) ? m_parser.value(QStringLiteral("db"))
                                                : lab::ResultStore::defaultPath();
}

int CommandLine::usageError(const QString &message, QTextStream &err) const
{
    err << "servelab-cli " << m_command << ": " << message << " (see servelab-cli " << m_command
        << " --help)\n";
    err.flush();
    return exitUsage;
}

bool CommandLine::parse(const QStringList &arguments, QTextStream &out, QTextStream &err,
                        int *exitCode)
{
    if (!m_parser.parse(arguments)) {
        *exitCode = usageError(m_parser.errorText().replace(u'\n', u' '), err);
        return false;
    }
    if (m_parser.isSet(QStringLiteral("help"))) {
        out << m_parser.helpText().replace(QStringLiteral("servelab-cli [options]"),
                                           QStringLiteral("servelab-cli ") + m_command +
                                               QStringLiteral(" [options]"));
        out.flush();
        *exitCode = exitOk;
        return false;
    }
    return true;
}

bool CommandLine::parseOptions(const QStringList &arguments, QTextStream &out, QTextStream &err,
                               int *exitCode)
{
    if (!parse(arguments, out, err, exitCode))
        return false;
    if (const QStringList rest = m_parser.positionalArguments(); !rest.isEmpty()) {
        *exitCode = usageError(QStringLiteral("unexpected argument '%1'").arg(rest.first()), err);
        return false;
    }
    return true;
}

// The value checks are OptionValue's, with the flag's name in front (one wording for a flag, a
// spec's option and the wizard).
bool CommandLine::checked(const QString &option, bool ok, const QString &error, QTextStream &err)
{
    if (!ok)
        usageError(flagOf(option) + u' ' + error, err);
    return ok;
}

bool CommandLine::number(const QString &option, qint64 min, qint64 max, qint64 *value,
                         QTextStream &err)
{
    QString error;
    return checked(option,
                   lab::OptionValue::wholeNumber(m_parser.value(option), min, max, value, &error),
                   error, err);
}

bool CommandLine::number(const lab::SpecField &field, qint64 *value, QTextStream &err)
{
    return number(QString::fromLatin1(field.flag), field.low, field.high, value, err);
}

bool CommandLine::size(const QString &option, quint64 min, quint64 max, quint64 *bytes,
                       QTextStream &err)
{
    QString error;
    return checked(option, lab::OptionValue::size(m_parser.value(option), min, max, bytes, &error),
                   error, err);
}

bool CommandLine::duration(const QString &option, qint64 maxMs, int *ms, QTextStream &err)
{
    QString error;
    return checked(option, lab::OptionValue::duration(m_parser.value(option), maxMs, ms, &error),
                   error, err);
}

bool CommandLine::onOff(const QString &option, bool *value, QTextStream &err)
{
    QString error;
    return checked(option, lab::OptionValue::onOff(m_parser.value(option), value, &error), error,
                   err);
}

} // namespace servelab::cli
