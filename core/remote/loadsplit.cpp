// SPDX-License-Identifier: Apache-2.0
#include "loadsplit.h"

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

} // namespace servelab::remote
