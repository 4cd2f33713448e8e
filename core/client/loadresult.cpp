// SPDX-License-Identifier: Apache-2.0
#include "loadresult.h"

#include <algorithm>

namespace servelab::client {

std::uint64_t LoadResult::failed() const
{
    std::uint64_t total = 0;
    for (auto count : errors)
        total += count;
    return total;
}

bool LoadResult::countRequest(std::optional<ErrorKind> error, std::uint64_t read,
                              std::uint64_t body, std::int64_t latencyMicros)
{
    ++completed;
    bytesRead += read;
    bodyBytes += body;
    if (error)
        countError(*error);
    else
        ++ok;
    const bool answered =
        !error || *error == ErrorKind::Status4xx || *error == ErrorKind::Status5xx;
    if (answered)
        latency.record(latencyMicros);
    return answered;
}

double LoadResult::requestsPerSecond() const
{
    return elapsedMicros > 0 ? static_cast<double>(completed) / elapsedSeconds() : 0.0;
}

double LoadResult::kibPerSecond() const
{
    return elapsedMicros > 0 ? static_cast<double>(bytesRead) / 1024.0 / elapsedSeconds() : 0.0;
}

ErrorKind LoadResult::dominantError() const
{
    const auto it = std::max_element(errors.begin(), errors.end());
    return static_cast<ErrorKind>(it - errors.begin());
}

void LoadResult::merge(const LoadResult &other)
{
    completed += other.completed;
    ok += other.ok;
    for (std::size_t i = 0; i < errors.size(); ++i)
        errors[i] += other.errors[i];
    bytesRead += other.bytesRead;
    bodyBytes += other.bodyBytes;
    connects += other.connects;
    unfinished += other.unfinished;
    elapsedMicros = std::max(elapsedMicros, other.elapsedMicros);
    latency.merge(other.latency);
    connectTimes.merge(other.connectTimes);
    processingTimes.merge(other.processingTimes);
    waitingTimes.merge(other.waitingTimes);
    tlsHandshakes += other.tlsHandshakes;
    tlsResumed += other.tlsResumed;
    tlsTimes.merge(other.tlsTimes);
    if (tlsProblem.empty())
        tlsProblem = other.tlsProblem;
    if (fatalError.empty())
        fatalError = other.fatalError;
    clientUse += other.clientUse;
    clientThreads += other.clientThreads;
}

} // namespace servelab::client
