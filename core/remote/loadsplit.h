// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

namespace servelab::remote {

// A whole (requests, connections, threads) divided among load agents by their weights so that
// the shares sum to it exactly: each agent gets floor(total · w / Σw), and the units left over
// go one each to the largest remainders (the earlier agent on a tie). Like k6's execution
// segments, no agent's part depends on rounding the others': the same weights always give the
// same split, and 100 requests over weights 1, 1, 1 are 34, 33, 33 — never 33 × 3 = 99.
std::vector<qint64> splitExactly(qint64 total, std::span<const double> weights);

} // namespace servelab::remote
