#pragma once

#include <QString>

namespace servelab::client {
struct ClientOptions;
struct LoadResult;
} // namespace servelab::client

namespace servelab::cli {

// ab's report for a finished run, with the same labels and units, plus errors by kind.
QString formatAbReport(const client::ClientOptions &options, const client::LoadResult &result);
// The same figures as one JSON object (servelab-cli load --json).
QString formatJsonReport(const client::ClientOptions &options, const client::LoadResult &result);

} // namespace servelab::cli
