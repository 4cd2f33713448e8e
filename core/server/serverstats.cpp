// SPDX-License-Identifier: Apache-2.0
#include "serverstats.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace servelab::server {

namespace {

using S = ServerStats;
using A = AtomicServerStats;

// clang-format off
constexpr ServerStatsField fields[] = {
    {"connections",         &S::connectionsAccepted,  &A::connectionsAccepted},
    {"requests",            &S::requests,             &A::requests},
    {"responses_2xx",       &S::responses2xx,         &A::responses2xx},
    {"responses_4xx",       &S::responses4xx,         &A::responses4xx},
    {"responses_5xx",       &S::responses5xx,         &A::responses5xx},
    {"bytes_sent",          &S::bytesSent,            &A::bytesSent},
    {"refused",             &S::refused,              &A::refused},
    {"emfile",              &S::acceptEmfile,         &A::acceptEmfile},
    {"connections_closed",  &S::connectionsClosed,    &A::connectionsClosed},
    {"downloads_started",   &S::downloadsStarted,     &A::downloadsStarted},
    {"downloads_finished",  &S::downloadsFinished,    &A::downloadsFinished},
    {"queued",              &S::queued,               nullptr},
    {"handoffs",            &S::handoffs,             &A::handoffs},
    {"handoff_wait_us",     &S::handoffWaitMicros,    &A::handoffWaitMicros},
    {"handoff_wait_max_us", &S::handoffWaitMaxMicros, &A::handoffWaitMaxMicros, true},
    {"tls_handshakes",      &S::tlsHandshakes,        &A::tlsHandshakes},
    {"tls_resumed",         &S::tlsResumed,           &A::tlsResumed},
    {"tls_failed",          &S::tlsFailed,            &A::tlsFailed},
    {"tls_kernel",          &S::tlsKernel,            &A::tlsKernel},
    {"tls_kernel_missed",   &S::tlsKernelMissed,      &A::tlsKernelMissed},
    {"h2_streams",          &S::h2Streams,            &A::h2Streams},
    {"h2_frames",           &S::h2Frames,             &A::h2Frames},
    {"h2_window_stalls",    &S::h2WindowStalls,       &A::h2WindowStalls},
    {"h2_goaways",          &S::h2Goaways,            &A::h2Goaways},
    {"h2_resets",           &S::h2Resets,             &A::h2Resets},
};
// clang-format on
static_assert(std::size(fields) == serverStatsFieldCount,
              "a counter was added or removed: set serverStatsFieldCount (serverstats.h) to match");

constexpr std::string_view linePrefix = "stats";

} // namespace

std::span<const ServerStatsField> serverStatsFields()
{
    return fields;
}

ServerStats &ServerStats::operator+=(const ServerStats &o)
{
    for (const auto &f : fields)
        this->*f.total =
            f.maximum ? std::max(this->*f.total, o.*f.total) : this->*f.total + o.*f.total;
    return *this;
}

std::string ServerStats::toLine() const
{
    std::string line(linePrefix);
    for (const auto &f : fields) {
        line += ' ';
        line += f.key;
        line += '=';
        line += std::to_string(this->*f.total);
    }
    return line;
}

std::optional<ServerStats> ServerStats::fromLine(std::string_view line)
{
    if (!line.starts_with(linePrefix) ||
        (line.size() > linePrefix.size() && line[linePrefix.size()] != ' '))
        return std::nullopt;
    ServerStats s;
    line.remove_prefix(linePrefix.size());
    while (!line.empty()) {
        const std::size_t start = line.find_first_not_of(' ');
        if (start == std::string_view::npos)
            break;
        line.remove_prefix(start);
        const std::string_view pair = line.substr(0, line.find(' '));
        line.remove_prefix(pair.size());
        const std::size_t equals = pair.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view key = pair.substr(0, equals);
        const std::string_view value = pair.substr(equals + 1);
        for (const auto &f : fields) {
            if (key != f.key)
                continue;
            std::uint64_t n = 0;
            if (std::from_chars(value.data(), value.data() + value.size(), n).ec == std::errc())
                s.*f.total = n;
        }
    }
    return s;
}

void AtomicServerStats::countResponse(int status)
{
    bump(requests);
    if (status < 300)
        bump(responses2xx);
    else if (status >= 500)
        bump(responses5xx);
    else if (status >= 400)
        bump(responses4xx);
}

ServerStats AtomicServerStats::snapshot() const
{
    ServerStats s;
    for (const auto &f : fields)
        if (f.counter)
            s.*f.total = (this->*f.counter).load(std::memory_order_relaxed);
    return s;
}

} // namespace servelab::server
