// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/latencyhistogram.h"

#include <QJsonObject>

#include <optional>

namespace servelab::remote {

// A latency histogram as an agent sends it: the counts in HdrHistogram's V2 encoding (the
// project's HdrHistogramLog), and the exact min, max, sum and sum of squares beside them, so
// that the coordinator merges agents bucket by bucket — never averages their percentiles — and
// the merged histogram is the one all their values would have made. (The count of values above
// LatencyHistogram::maxTrackable is not carried: they sit in the top bucket either way.)
QJsonObject histogramToJson(const client::LatencyHistogram &histogram);
std::optional<client::LatencyHistogram> histogramFromJson(const QJsonObject &object);

} // namespace servelab::remote
