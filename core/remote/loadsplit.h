// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include <span>
#include <vector>

namespace servelab::lab {
struct SweepSpec;
}

namespace servelab::remote {

// A whole (requests, connections, threads) divided among load agents by their weights so that
// the shares sum to it exactly: each agent gets floor(total · w / Σw), and the units left over
// go one each to the largest remainders (the earlier agent on a tie). Like k6's execution
// segments, no agent's part depends on rounding the others': the same weights always give the
// same split, and 100 requests over weights 1, 1, 1 are 34, 33, 33 — never 33 × 3 = 99.
std::vector<qint64> splitExactly(qint64 total, std::span<const double> weights);

// The spec split by the load hosts' weights: requests, connections and rates sum to the
// spec's exactly. Connections (users) are split first; a host whose share of them is 0 gets no
// share, and the requests and rate are split among the others. Threads: split too, at least
// 1, at most the share's connections.
// `agents` gets each share's load host (its index in `weights`), `phasesNs` when each starts
// after T0: 0, except for a rate client, whose k-th share starts k/R later, so that n equal
// shares' merged arrivals are 1/R apart, as one client's would be.
QList<lab::SweepSpec> splitShares(const lab::SweepSpec &spec, std::span<const double> weights,
                                  QList<int> *agents, QList<qint64> *phasesNs);

} // namespace servelab::remote
