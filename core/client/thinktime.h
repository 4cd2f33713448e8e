// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace servelab::client {

// How long a user of the ramp model (faban) waits: between a response and its next request
// (think time), or between the starts of two requests (cycle time).
struct ThinkTime
{
    enum class Kind
    {
        None,    // back to back
        Fixed,   // always meanMs
        Uniform, // evenly between minMs and maxMs
        NegExp,  // negative exponential with mean meanMs, truncated at 5 × the mean (faban)
    } kind = Kind::None;
    double meanMs = 0;
    double minMs = 0;
    double maxMs = 0;
    bool cycle = false; // the time is between request starts, not after each response

    // Parses "none", "fixed:500ms", "uniform:100ms-900ms", "negexp:500ms", "cycle:1s" (a fixed
    // cycle time) or "cycle-negexp:1s". Times take ms or s (bare numbers are ms).
    static bool parse(const std::string &text, ThinkTime *think, std::string *error);
    double targetMeanMs() const;
    // One wait, in µs.
    double sampleMicros(std::mt19937_64 &random) const;
};

} // namespace servelab::client
