#include "commandline.h"

#include "cli.h"

#include <QTextStream>

namespace servelab::cli {

CommandLine::CommandLine(const QString &command, const QString &description) : m_command(command)
{
    m_parser.setApplicationDescription(description);
    m_parser.addHelpOption();
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

bool CommandLine::number(const QString &option, qint64 min, qint64 max, qint64 *value,
                         QTextStream &err)
{
    const QString text = m_parser.value(option);
    bool ok = false;
    const qint64 parsed = text.toLongLong(&ok);
    if (!ok || parsed < min || parsed > max) {
        const QString flag = option.size() == 1 ? u'-' + option : QStringLiteral("--") + option;
        usageError(QStringLiteral("%1 wants a whole number from %2 to %3, not '%4'")
                       .arg(flag)
                       .arg(min)
                       .arg(max)
                       .arg(text),
                   err);
        return false;
    }
    *value = parsed;
    return true;
}

} // namespace servelab::cli
