// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "loadresult.h"
#include "stopsignal.h"

#include <vector>

namespace servelab::client {

// The `duration` model with wrk's semantics: `concurrency` kept-alive connections spread over
// `threads` threads (each its own epoll loop, share-nothing), requesting back to back for
// `durationMs`. Requests in flight at the end are dropped (counted in `unfinished`), as wrk
// does. run() blocks; stop() may be called from any thread.
class DurationClient
{
public:
    struct Result
    {
        LoadResult total;                  // merged; elapsed is the run's
        std::vector<LoadResult> perThread; // each thread's own, for req/s per thread
    };

    DurationClient(ClientOptions options, int threads, std::int64_t durationMs);
    DurationClient(const DurationClient &) = delete;
    DurationClient &operator=(const DurationClient &) = delete;

    Result run();
    void stop();

private:
    ClientOptions m_options;
    int m_threads;
    std::int64_t m_durationMs;
    StopSignal m_stop;
};

} // namespace servelab::client
