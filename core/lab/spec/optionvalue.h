// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

// The kinds of value an option takes, read from text with one wording for what is wrong: the
// command line (CommandLine) and the server option table (ServerOptionTable) both use these, so
// a flag, a spec's option and the wizard's name=value are refused in the same words. The error
// leaves out the option's name ("wants a size from …, not 'x'"): the caller puts it in front.
class OptionValue
{
public:
    // A whole number in [min, max].
    static bool wholeNumber(const QString &text, qint64 min, qint64 max, qint64 *value,
                            QString *error);
    // A size like 8K or 81000, in [min, max] bytes.
    static bool size(const QString &text, quint64 min, quint64 max, quint64 *bytes, QString *error);
    // A duration: "500ms", "5s" or plain seconds ("2.5"); at least 1 ms, at most maxMs.
    static bool duration(const QString &text, qint64 maxMs, int *ms, QString *error);
    // "on"/"off" (also yes/no, true/false, 1/0), in any case.
    static bool onOff(const QString &text, bool *value, QString *error);
    // A duration as the options print it: "5s", or "250ms" when it is not whole seconds.
    static QString durationText(int ms);
};

} // namespace servelab::lab
