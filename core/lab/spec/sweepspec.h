// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/loadmodel.h"
#include "profilerequest.h"
#include "specfield.h"
#include "targetkind.h"
#include "tuneplan.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace servelab::lab {

// The first, thin experiment: one built-in target, a list of file sizes, the closed (ab)
// client. The full JSON experiment spec (issue 5) will grow out of this.
struct SweepSpec
{
    QList<quint64> sizes;
    QString mode = QStringLiteral("epoll+sendfile");
    int serverThreads = int(SpecFields::serverThreads.fallback);
    client::LoadModel model = client::LoadModel::Closed;         // lab::ExperimentModel's rows
    int durationMs = int(SpecFields::seconds.fallback * 1000);   // duration, rate: wrk -d
    int clientThreads = int(SpecFields::clientThreads.fallback); // duration, rate, ramp: wrk -t
    quint64 requests = SpecFields::requests.fallback;            // per point (ab -n)
    int concurrency = int(SpecFields::concurrency.fallback);     // ab -c, wrk -c
    bool keepAlive = false;                                      // ab -k
    qint64 ratePerSecond = SpecFields::rate.fallback;            // rate: wrk2 -R, offered
    int rampUpMs = int(SpecFields::rampUp.fallback * 1000);      // ramp: faban's -r up/steady/down
    int steadyMs = int(SpecFields::steady.fallback * 1000);
    int rampDownMs = int(SpecFields::rampDown.fallback * 1000);
    QString think = QStringLiteral("none"); // ramp: each user's think time (client::ThinkTime)
    // Seed 002's "somewhat realistic" load: kept-alive connections closed after K requests (0:
    // never) or with a probability after each, a wait between requests on a kept-alive
    // connection (closed, duration), and ab's HTTP/1.0 requests and reads (closed).
    qint64 closeAfter = SpecFields::closeAfter.fallback;
    // HTTP/2 transports (h2c, h2): the concurrency's requests go `streams` to a connection
    // (concurrency / streams connections, h2load's -c and -m); HTTP/1 ones ignore it.
    int streams = int(SpecFields::streams.fallback);
    double closeProbability = 0;
    QString keepAliveThink = QStringLiteral("none");
    bool http10 = false;
    bool abReads = false;
    int timeoutMs = int(SpecFields::timeoutMs.fallback);
    int pointDeadlineMs = int(SpecFields::pointDeadlineMs.fallback); // then a point is DNF
    QString root; // the document root; empty: a folder in the user's cache (per content)
    QString content = QStringLiteral("random"); // of the generated files: random or zeros
    int filesPerSize = int(
        SpecFields::filesPerSize
            .fallback); // several files of each size, requested in turn (defeats one-file caches)
    bool generateRoot = true; // false: `root` is used as it is, and must hold the files already
    // "builtin" (the mode above), an external template ("nginx", "lighttpd", "apache", "h2o"),
    // "command:<command line with {port} and {root}>", or "url:http://HOST:PORT/PATH/" for a
    // server already running (ServeLab requests PATH/<size>.bin and watches `watchPid`, if set).
    QString target = QStringLiteral("builtin");
    qint64 watchPid = 0; // url targets: the server process to sample (0: none)
    // A builtin target's server runs as a child `servelab-cli serve` (the default: its
    // descriptors, threads and CPU are the server's alone); false: in this process, sharing its
    // descriptors with the load client and the lab.
    bool isolated = true;
    int fdLimit = 0; // RLIMIT_NOFILE of that child (0: inherit); needs isolated
    // More `servelab-cli serve` flags for a builtin target ("--chunk", "81000"); need isolated.
    QStringList serverArguments;
    // Changes to that server inside each point (seed 003's live tuning), in time order; each
    // point starts from the options above again.
    QList<TuneStep> tune;
    // The spec's "label": what the target stands for, after its name in every table and chart
    // ("blocking+copy (Coyote BIO's analogue)"); empty: none. One line, at most 40 characters.
    QString caption;
    bool ifInstalled = false; // the spec's "if_installed": left out where its server is not
    QString variant;          // what sets this target apart in a sweep ("sendfile-threshold=64K")
    // "http", or "https" with the handshake policy ("https:resume"): lab::Transport. A builtin
    // target then serves with --tls self-signed, and the client checks that certificate.
    QString transport = QStringLiteral("http");
    quint64 warmupRequests = 0; // made before each point and not counted
    int cooldownMs = 0;         // rest after each point
    ProfileRequest profile;     // the points profiled with perf, and how

    bool runsIsolated() const { return kind() == TargetKind::Builtin && isolated; }
    TargetKind kind() const { return targetKindOf(target); }
    bool isUrl() const { return kind() == TargetKind::Url; }
    QString url() const { return isUrl() ? targetValue(target) : QString(); }
    // How tables name it: the mode ("epoll+copy (in-process)" when not isolated), the template,
    // the command's program or the URL, then the caption in brackets.
    QString label() const;
    QString name() const; // the same without the caption

    // Why a caption cannot be a label (empty: it can).
    static QString captionProblem(const QString &caption);
    // The checks a user can fix; returns an empty string when the spec can run.
    QString validate() const;
    // The HTTP/2 part of it, for an h2c or h2 transport: the target speaks it, the client's
    // HTTP/1 flags are off, the concurrency is whole connections of `streams`.
    QString http2Problem() const;
    // What its points speak: "http/1.1", "h2c" or "h2" (lab::Transport::protocol).
    QString protocol() const;
    // The document root: `root`, or the cache folder for this content ("" for a url target
    // without one: ServeLab does not know what it serves).
    QString resolvedRoot() const;
    static SweepSpec defaults(); // the default experiment: 4K..32M, ab -c 1 -n 200
    // The spec as the JSON the experiment files will use ("servelab": 1).
    QByteArray toJson() const;
};

} // namespace servelab::lab

Q_DECLARE_METATYPE(servelab::lab::SweepSpec)
