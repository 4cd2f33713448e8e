// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

namespace servelab::lab {

// What repetitions of one point say: the mean, the sample standard deviation, a 95 %
// confidence interval for the mean (Student's t, since repetitions are few), and whether the
// point is noisy (coefficient of variation above a threshold).
struct Statistics
{
    int count = 0;
    double mean = 0;
    double stddev = 0;    // sample (n - 1); 0 for one value
    double halfWidth = 0; // of the 95 % interval: mean ± halfWidth; 0 for one value
    double cv = 0;        // stddev / mean
    bool noisy = false;

    double low() const { return mean - halfWidth; }
    double high() const { return mean + halfWidth; }

    static constexpr double defaultNoisyCv = 0.05;
    static Statistics of(const std::vector<double> &values, double noisyCv = defaultNoisyCv);
    // The two-sided 95 % quantile of Student's t with `degrees` degrees of freedom.
    static double t95(int degrees);
};

} // namespace servelab::lab
