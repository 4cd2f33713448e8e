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
//    "targets": [{"builtin": "epoll+sendfile", "threads": 1, "isolated": false, "fd_limit": 0},
//                {"external": "nginx", "threads": 1}, {"external": "command:CMD {port} {root}"}],
//    "sizes": ["4K", "64K"] or "4K..32M", "document_root": "DIR",
//    "client": {"model": "closed", "requests": 200, "concurrency": 1, "keep_alive": false,
//               "timeout_ms": 30000},
//    "repetitions": 1, "point_deadline_ms": 120000}
struct ExperimentSpec
{
    QString name;
    QList<SweepSpec> targets; // one sweep per target, sharing sizes and client
    int repetitions = 1;

    // False with one line per problem in *errors.
    static bool parse(const QByteArray &text, const QString &fileName, ExperimentSpec *spec,
                      QStringList *errors);
    QByteArray toJson() const;
};

} // namespace servelab::lab
