// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <span>

namespace servelab::server {
struct ServerOptions;
}

namespace servelab::lab {

// The built-in servers' options, one row each (nginx's directive table): `serve`'s flags and
// their --help (so the man page), a spec target's "options", the wizard's name=value, the
// isolated child's argv and every check of a value come from these rows. A new option is a
// field in ServerOptions and a row here.
class ServerOptionTable
{
public:
    struct Row
    {
        const char *name;   // the flag without "--"; the key in a spec's "options"
        const char *syntax; // the value's placeholder in --help: n, size, time, on|off, ...
        const char *help;
        // The value as text, as --help shows the default and set() reads it back.
        QString (*text)(const server::ServerOptions &);
        // Sets the field from text; false with what is wrong, without the name in front.
        bool (*set)(server::ServerOptions *, const QString &, QString *);
        // Why it cannot change while the server runs (ServerTuning refuses it with this);
        // null: it can (from each thread's next wake-up).
        const char *fixed = nullptr;
    };

    static std::span<const Row> rows();
    static const Row *find(QStringView name);
    // One option from its text; false with one line naming it ("--chunk wants a size …",
    // "--banana is not a server option …").
    static bool set(server::ServerOptions *options, QStringView name, const QString &text,
                    QString *error);
    // What no single row can check: the ones that depend on the mode (options->mode).
    static bool check(const server::ServerOptions &options, QString *error);
    // "--name value" pairs (SweepSpec::serverArguments) set in order, then check().
    static bool apply(server::ServerOptions *options, const QStringList &arguments, QString *error);
};

} // namespace servelab::lab
