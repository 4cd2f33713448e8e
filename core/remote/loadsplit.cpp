// SPDX-License-Identifier: Apache-2.0
#include "loadsplit.h"

#include "lab/spec/sweepspec.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace servelab::remote {

std::vector<qint64> splitExactly(qint64 total, std::span<const double> weights)
{
    std::vector<qint64> shares(weights.size(), 0);
    const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    if (weights.empty() || total <= 0 || !(sum > 0))
        return shares;
    std::vector<double> remainders(weights.size());
    qint64 given = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        // In long double: 10^12 requests times a weight keeps its units exact.
        const long double exact = (long double)total * weights[i] / sum;
        shares[i] = qint64(std::floor(exact));
        remainders[i] = double(exact - (long double)shares[i]);
        given += shares[i];
    }
    std::vector<size_t> order(weights.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return remainders[a] > remainders[b]; });
    for (size_t k = 0; given < total; k = (k + 1) % order.size(), ++given)
        ++shares[order[k]];
    return shares;
}

QList<lab::SweepSpec> splitShares(const lab::SweepSpec &spec, std::span<const double> weights,
                                  QList<int> *agents, QList<qint64> *phasesNs)
{
    const bool closed = spec.model == client::LoadModel::Closed;
    // Connections (users) first: a host without one has no share, and the rest of the load
    // is split among the hosts that have.
    const auto connections = splitExactly(spec.concurrency, weights);
    std::vector<double> active(weights.begin(), weights.end());
    for (size_t i = 0; i < active.size(); ++i)
        if (connections[i] == 0)
            active[i] = 0;
    const auto requests = splitExactly(qint64(spec.requests), active);
    const auto rates = splitExactly(spec.ratePerSecond, active);
    const auto threads = splitExactly(spec.clientThreads, active);
    std::vector<qint64> open = connections;
    if (closed) {
        // ab's rule on each share: no more connections than requests. A connection that does
        // not fit goes to a share with requests to spare, so that the sum stays the spec's.
        qint64 homeless = 0;
        for (size_t i = 0; i < open.size(); ++i)
            if (open[i] > requests[i]) {
                homeless += open[i] - requests[i];
                open[i] = requests[i];
            }
        for (size_t i = 0; homeless > 0 && i < open.size(); ++i) {
            const qint64 room = std::min(homeless, requests[i] - open[i]);
            open[i] += room;
            homeless -= room;
        }
    }
    QList<lab::SweepSpec> shares;
    agents->clear();
    phasesNs->clear();
    for (size_t i = 0; i < weights.size(); ++i) {
        if (open[i] <= 0)
            continue;
        lab::SweepSpec share = spec;
        share.concurrency = int(open[i]);
        share.requests = quint64(requests[i]);
        share.ratePerSecond = rates[i];
        share.clientThreads = int(std::clamp<qint64>(threads[i], 1, open[i]));
        shares << share;
        *agents << int(i);
    }
    for (qsizetype k = 0; k < shares.size(); ++k)
        *phasesNs << (spec.model == client::LoadModel::Rate && spec.ratePerSecond > 0
                          ? k * 1'000'000'000 / spec.ratePerSecond
                          : 0);
    return shares;
}

} // namespace servelab::remote
