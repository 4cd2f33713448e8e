// SPDX-License-Identifier: Apache-2.0
#include "thinktime.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace servelab::client {

namespace {

bool parseMs(const std::string &text, double *ms)
{
    if (text.empty())
        return false;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const std::string unit(end);
    if (end == text.c_str() || value < 0)
        return false;
    if (unit.empty() || unit == "ms")
        *ms = value;
    else if (unit == "s")
        *ms = value * 1000;
    else
        return false;
    return true;
}

} // namespace

bool ThinkTime::parse(const std::string &text, ThinkTime *think, std::string *error)
{
    ThinkTime t;
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    const std::string value = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    bool ok = true;
    if (kind == "none" && colon == std::string::npos) {
        t.kind = Kind::None;
    } else if (kind == "fixed" || kind == "cycle") {
        t.kind = Kind::Fixed;
        t.cycle = kind == "cycle";
        ok = parseMs(value, &t.meanMs);
    } else if (kind == "negexp" || kind == "cycle-negexp") {
        t.kind = Kind::NegExp;
        t.cycle = kind == "cycle-negexp";
        ok = parseMs(value, &t.meanMs) && t.meanMs > 0;
    } else if (kind == "uniform") {
        t.kind = Kind::Uniform;
        const auto dash = value.find('-');
        ok = dash != std::string::npos && parseMs(value.substr(0, dash), &t.minMs) &&
             parseMs(value.substr(dash + 1), &t.maxMs) && t.minMs <= t.maxMs;
        t.meanMs = (t.minMs + t.maxMs) / 2;
    } else {
        ok = false;
    }
    if (!ok) {
        *error = "'" + text +
                 "' is not a think time: use none, fixed:500ms, uniform:100ms-900ms, "
                 "negexp:500ms, cycle:1s or cycle-negexp:1s";
        return false;
    }
    *think = t;
    return true;
}

double ThinkTime::targetMeanMs() const
{
    if (kind != Kind::NegExp)
        return kind == Kind::None ? 0 : meanMs;
    // The mean of an exponential with mean m truncated at 5m: m (1 - 6 e^-5) / (1 - e^-5).
    const double tail = std::exp(-5.0);
    return meanMs * (1 - 6 * tail) / (1 - tail);
}

double ThinkTime::sampleMicros(std::mt19937_64 &random) const
{
    switch (kind) {
    case Kind::None: return 0;
    case Kind::Fixed: return meanMs * 1000;
    case Kind::Uniform: return std::uniform_real_distribution<double>(minMs, maxMs)(random) * 1000;
    case Kind::NegExp: {
        std::exponential_distribution<double> exponential(1.0 / meanMs);
        double ms;
        do {
            ms = exponential(random);
        } while (ms > 5 * meanMs); // truncated, as faban does, so one draw cannot stall a user
        return ms * 1000;
    }
    }
    return 0;
}

} // namespace servelab::client
