#pragma once

#include <QString>

#include <vector>

namespace servelab::client {
struct ClientOptions;
struct LoadResult;
} // namespace servelab::client

namespace servelab::cli {

// ab's report for a finished run, with the same labels and units, plus errors by kind.
QString formatAbReport(const client::ClientOptions &options, const client::LoadResult &result);
// wrk's report for a duration run: latency and req/s per thread, the latency distribution,
// requests, Requests/sec and Transfer/sec (MB = MiB, as wrk), plus errors by kind.
QString formatWrkReport(const client::ClientOptions &options, const client::LoadResult &total,
                        const std::vector<client::LoadResult> &perThread, double seconds);
// The same figures as one JSON object (servelab-cli load --json); `perThread` is empty for the
// closed model.
QString formatJsonReport(const client::ClientOptions &options, const client::LoadResult &result,
                         const QString &model = QStringLiteral("closed"),
                         const std::vector<client::LoadResult> &perThread = {});

} // namespace servelab::cli
