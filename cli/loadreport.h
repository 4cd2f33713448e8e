// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <vector>

#include "client/clientsample.h"
#include "client/rampclient.h"
#include "client/rateclient.h"

namespace servelab::cli {

// ab's report for a finished run, with the same labels and units, plus errors by kind.
QString formatAbReport(const client::ClientOptions &options, const client::LoadResult &result);
// wrk's report for a duration run: latency and req/s per thread, the latency distribution,
// requests, Requests/sec and Transfer/sec (MB = MiB, as wrk), plus errors by kind.
QString formatWrkReport(const client::ClientOptions &options, const client::LoadResult &total,
                        const std::vector<client::LoadResult> &perThread, double seconds);
// wrk2's report for a rate run: the corrected latency distribution (from the intended send
// times) and the uncorrected one, the offered and achieved rates, late and missed slots.
QString formatWrk2Report(const client::ClientOptions &options,
                         const client::RateClient::Result &run, double seconds);
// fhb's summary of the steady state (ops/sec, % errors, avg, max and 90th percentile response
// times in seconds) and faban's validity checks (Little's law, think time) with their figures.
QString formatFabanReport(const client::RampClient::Result &run);
// The live samples of a run as CSV, one row per 100 ms with every thread's sample summed:
// t_s,interval_s,completed,ok,failed,req_per_s,kib_per_s,open,p50_us,p90_us,p99_us,max_us
QString formatSamplesCsv(const std::vector<client::ClientSample> &samples);
// The live samples' latencies as an HdrHistogram interval log, one line per 100 ms (all threads
// merged), for a run that started at `startEpochSeconds`.
QString formatHdrLog(const std::vector<client::ClientSample> &samples, double startEpochSeconds);
// The same figures as one JSON object (servelab-cli load --json); `perThread` is empty for the
// closed model, `rate` set for the rate model (adds the uncorrected latency, late, missed).
QString formatJsonReport(const client::ClientOptions &options, const client::LoadResult &result,
                         const QString &model = QStringLiteral("closed"),
                         const std::vector<client::LoadResult> &perThread = {},
                         const client::RateClient::Result *rate = nullptr,
                         const client::RampClient::Result *ramp = nullptr);

} // namespace servelab::cli
