// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "server/serverstats.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace servelab::lab {

struct SweepSpec;

// What a sweep measures, whatever it is (design.md's targets): a built-in server in this
// process or in a child `servelab-cli serve`, a real server ServeLab configures and starts, or
// one already running at a URL. SweepRunner asks only this: start it, where it listens, which
// process to watch, its own counters, stop it.
class Target
{
public:
    virtual ~Target() = default;

    // The target for `spec`, serving `root` (the document root, generated or given).
    static std::unique_ptr<Target> create(const SweepSpec &spec, const QString &root);

    // False with *error saying what to do (a server that does not start, nothing at the URL).
    virtual bool start(QString *error) = 0;
    virtual quint16 port() const = 0;
    // The server process to sample (this one for an in-process server; 0: none to watch).
    virtual qint64 pid() const = 0;
    // The server's own counters so far, where ServeLab can read them (its built-in servers).
    virtual std::optional<server::ServerStats> counters() { return std::nullopt; }
    // A change while it serves, ServerTuning's name=value pairs, all or none; false with the
    // reason, and the target goes on unchanged. Only the built-in servers take one.
    virtual bool tune(const QStringList &assignments, QString *error);
    // What may change while it serves, name=value as it is now; empty: nothing can.
    virtual QStringList liveOptions() { return {}; }
    virtual void stop() {}
};

} // namespace servelab::lab
