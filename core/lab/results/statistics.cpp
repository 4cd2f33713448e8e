// SPDX-License-Identifier: Apache-2.0
#include "statistics.h"

#include <cmath>

namespace servelab::lab {

double Statistics::t95(int degrees)
{
    // t(0.975, df) for df = 1..30, from the standard tables.
    static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                       2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                       2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                       2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (degrees < 1)
        return 0;
    if (degrees <= 30)
        return table[degrees - 1];
    // Beyond 30: the normal quantile with the first terms of t's expansion in 1/df (within
    // 0.001 of the tables at 40, 60 and 120).
    const double z = 1.959964;
    const double df = degrees;
    return z + (z * z * z + z) / (4 * df) +
           (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
}

Statistics Statistics::of(const std::vector<double> &values, double noisyCv)
{
    Statistics s;
    s.count = static_cast<int>(values.size());
    if (s.count == 0)
        return s;
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / s.count;
    if (s.count > 1) {
        double squares = 0;
        for (double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / (s.count - 1));
        s.halfWidth = t95(s.count - 1) * s.stddev / std::sqrt(double(s.count));
    }
    s.cv = s.mean != 0 ? s.stddev / std::fabs(s.mean) : 0;
    s.noisy = s.cv > noisyCv;
    return s;
}

} // namespace servelab::lab
