// SPDX-License-Identifier: Apache-2.0
#include "commandline.h"

#include "cli.h"

#include "lab/sizelist.h"

#include <QRegularExpression>
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
        usageError(QStringLiteral("%1 wants a whole number from %2 to %3, not '%4'")
                       .arg(flagOf(option))
                       .arg(min)
                       .arg(max)
                       .arg(text),
                   err);
        return false;
    }
    *value = parsed;
    return true;
}

bool CommandLine::size(const QString &option, quint64 min, quint64 max, quint64 *bytes,
                       QTextStream &err)
{
    const QString text = m_parser.value(option);
    quint64 parsed = 0;
    if (!lab::parseSize(text, &parsed, nullptr) || parsed < min || parsed > max) {
        usageError(QStringLiteral("%1 wants a size from %2 to %3 (like 8K or 81000), not '%4'")
                       .arg(flagOf(option), lab::formatSize(min), lab::formatSize(max), text),
                   err);
        return false;
    }
    *bytes = parsed;
    return true;
}

bool CommandLine::duration(const QString &option, qint64 maxMs, int *ms, QTextStream &err)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d+(?:\\.\\d+)?)(ms|s)?$"));
    const QString text = m_parser.value(option).trimmed();
    const auto match = pattern.match(text);
    const double value = match.captured(1).toDouble();
    const double parsed = match.captured(2) == u"ms" ? value : value * 1000.0;
    if (!match.hasMatch() || parsed < 1 || parsed > double(maxMs)) {
        usageError(QStringLiteral("%1 wants a duration like 500ms or 5s (at most %2 s), not '%3'")
                       .arg(flagOf(option))
                       .arg(maxMs / 1000)
                       .arg(text),
                   err);
        return false;
    }
    *ms = static_cast<int>(parsed);
    return true;
}

bool CommandLine::onOff(const QString &option, bool *value, QTextStream &err)
{
    const QString text = m_parser.value(option).toLower();
    if (text == u"on" || text == u"yes" || text == u"true" || text == u"1") {
        *value = true;
        return true;
    }
    if (text == u"off" || text == u"no" || text == u"false" || text == u"0") {
        *value = false;
        return true;
    }
    usageError(QStringLiteral("%1 wants on or off, not '%2'").arg(flagOf(option), text), err);
    return false;
}

} // namespace servelab::cli
