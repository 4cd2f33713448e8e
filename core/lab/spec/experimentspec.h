// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sweepspec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace servelab::lab {

// An experiment file (design.md, "Files"): JSON with "servelab": 1, one or more targets, the
// file sizes, the client and how often to repeat each point. Parsing checks everything before
// anything runs and reports each problem as "FILE:LINE:COLUMN: field: what is wrong"; defaults
// are filled in, so toJson() writes the complete spec back.
//
//   {"servelab": 1, "name": "...",
//    "targets": [{"builtin": "epoll+sendfile", "threads": 1, "isolated": true, "fd_limit": 0},
//                {"external": "nginx", "threads": 1}, {"external": "command:CMD {port} {root}"},
//                {"url": "http://127.0.0.1:8080/files/", "pid": 1234}],
//    "sizes": ["4K", "64K"] or "4K..32M",
//    "document_root": "DIR" or {"path": DIR, "content": "random" or "zeros",
//                               "files_per_size": 1, "generate": true},
//    "client": {"model": "closed", "requests": 200, "concurrency": 1 (or [1, 10, 100]),
//               "keep_alive": false,
//               "timeout_ms": 30000}
//      or {"model": "duration", "seconds": 10, "concurrency": 96, "threads": 8} (wrk),
//      or {"model": "rate", "rate": 1000, "seconds": 10, "concurrency": 96, "threads": 8}
//         (wrk2; "rates": [1000, 2000] or {"from": 1000, "to": 10000, "step": 1000} instead of
//         "rate" runs every target at each: latency against offered load),
//      or {"model": "ramp", "ramp_up_seconds": 5, "steady_seconds": 30,
//          "ramp_down_seconds": 5, "think": "negexp:500ms", "concurrency": 100,
//          "threads": 4, "keep_alive": true} (faban fhb)
//      (which model takes which key: lab::ExperimentModel's rows),
//    or "clients": [{"name": "fhb", "model": "ramp", ...}, {"name": "ab", ...}] (every target
//      under each load; a name defaults to its tool's: ab, wrk, wrk2, fhb),
//    "repetitions": 1, "point_deadline_ms": 120000, "warmup_requests": 0, "cooldown_ms": 0,
//    "sweep": {"option": "sendfile-threshold", "values": ["0", "64K", "1M"]},
//    "hosts": "hosts.json"}
//
// "hosts" names a hosts file (remote::HostsFile): the experiment then runs across machines, each
// target on its server host and each point's load split among its load hosts; as written, a
// relative path is from the working folder (as document_root).
// A url target is a server already running: ServeLab requests FOLDER/<size>.bin there and
// samples the process `pid` if given. With "generate": false the document root is used as it is
// and must hold the files (<size>.bin, and <size>-1.bin … for several files per size).
// A builtin target may carry "options": {"chunk": 81000, "nodelay": false, ...}: more
// `servelab-cli serve` flags (the target then runs as a child process). "sweep" repeats every
// builtin target once per value of one such option.
// One load of an experiment's "clients": every target is run under each, its `name` in the
// targets' labels ("epoll+copy fhb").
struct ClientLoad
{
    QString name;
    SweepSpec client; // the client's fields: model, concurrency, timeout and ClientKey's keys
    QList<int> concurrencies;
    QList<qint64> rates;

    // The client's fields onto `target` (the rest of it stays).
    void applyTo(SweepSpec *target) const;
};

struct ExperimentSpec
{
    QString name;
    QList<SweepSpec> targets; // as written, sharing sizes and client
    int repetitions = 1;
    QString sweepOption; // empty: no sweep
    QStringList sweepValues;
    QList<int> concurrencies; // "concurrency": [1, 10, 100]: each target at each (empty: one)
    QList<qint64> rates; // "rates": [1000, 2000]: a rate client at each offered rate (empty: one)
    // "clients": [{...}, {...}]: several loads, each target under each (empty: the one load
    // of "client", which `targets` carry; with loads, they carry the first, and `concurrencies`
    // and `rates` are the first's).
    QList<ClientLoad> loads;
    // "transport": "https" or ["http", "https", "https:resume"]: every target over each, a
    // series each (lab::Transport; empty: http alone).
    QStringList transports;
    // "hosts": the hosts file of a run across machines (empty: everything on this one).
    QString hosts;
    // Targets marked "if_installed" whose server is not installed here, one line each ("nginx
    // left out: not installed here (apt-get install nginx)"): not run, not written back.
    QStringList leftOut;

    // The targets to run: each builtin target once per sweep value, then each of those at each
    // concurrency, then at each offered rate, then over each transport (its `variant` says
    // which: "sendfile-threshold=64K c=10 R=2000 https").
    QList<SweepSpec> expanded() const;
    // The variant of an offered rate ("R=2000"): what a target's label carries at that rate.
    static QString rateVariant(qint64 rate);

    // False with one line per problem in *errors.
    static bool parse(const QByteArray &text, const QString &fileName, ExperimentSpec *spec,
                      QStringList *errors);
    QByteArray toJson() const;

private:
    QList<SweepSpec> expandedOption() const;
    QList<SweepSpec> expandedLoads() const;
    static QList<SweepSpec> expandedLevels(const QList<SweepSpec> &targets,
                                           const QList<int> &concurrencies,
                                           const QList<qint64> &rates);
};

} // namespace servelab::lab
