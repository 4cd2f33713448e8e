// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "latencyhistogram.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace servelab::client {

// HdrHistogram's interchange formats, so its tools (HistogramLogProcessor, the plotters) read
// our latencies. Written here: Debian packages HdrHistogram for Java and Go only. Values are in
// microseconds; the log's Interval_Max column is in milliseconds (pass
// `-outputValueUnitRatio 1000` to HistogramLogProcessor for milliseconds, 1 for microseconds).
class HdrHistogramLog
{
public:
    // One histogram in the V2 compressed encoding, base64 ("HISTF..."): a 40-byte header
    // (2 significant digits, lowest 1, highest LatencyHistogram::maxTrackable), the counts as
    // ZigZag LEB128 words with runs of empty buckets folded into one negative word, deflated.
    static std::string encode(const LatencyHistogram &histogram);
    // Reads back what encode() wrote (and any V2 histogram with the same bucket layout: 2
    // significant digits, lowest 1); nothing when it is not one.
    static std::optional<LatencyHistogram> decode(std::string_view base64);

    // An interval log (format version 1.3) for a run that started at `startEpochSeconds`.
    explicit HdrHistogramLog(double startEpochSeconds);
    // One interval, its start in seconds since the run's start; a tag (no commas or spaces)
    // names the series it belongs to (HdrHistogram's "Tag=" lines).
    void add(double startSeconds, double lengthSeconds, const LatencyHistogram &histogram,
             const std::string &tag = {});
    const std::string &text() const { return m_text; }

private:
    std::string m_text;
};

} // namespace servelab::client
