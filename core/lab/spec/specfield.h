// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtGlobal>

namespace servelab::lab {

// How a place that takes a number names it in what it says: the spec by its JSON path
// ("client.requests"), `servelab-cli load` by its flag ("-n"), the window by its label
// ("Requests per point").
enum class FieldNaming
{
    Spec,
    Flag,
    Label
};

// One whole number an experiment holds, declared once: where the spec keeps it, the `load`
// flag that sets it (if any, in the same unit), the window's label, its range and its default.
// The spec reader, SweepSpec::validate, `load`, the form and the wizard all read these rows
// (SpecFields below), so a range cannot drift between them and a bad value is refused in the
// same words wherever it is typed.
struct SpecField
{
    const char *path;  // in the spec
    const char *flag;  // `load`'s flag without its dashes, or nullptr
    const char *label; // in the window
    qint64 low;
    qint64 high;
    qint64 fallback; // when the spec leaves it out

    bool contains(qint64 value) const { return value >= low && value <= high; }
    QString name(FieldNaming naming) const;
    // "wants a whole number from LOW to HIGH" (what the spec reader and OptionValue say).
    QString wants() const;
    // Empty when `value` is in range, else "NAME wants a whole number from LOW to HIGH, not 'V'"
    // (with a colon after a spec's path, as the spec reader writes it).
    QString problem(qint64 value, FieldNaming naming) const;
    // The range a spin box can show: int's, so `high` is capped at INT_MAX; `per` scales the
    // unit (1000: a field in ms shown in seconds).
    int spinLow(int per = 1) const;
    int spinHigh(int per = 1) const;
};

namespace SpecFields {
// clang-format off
//                                        path in the spec                flag       label                 low  high             default
// Experiment-wide.
inline constexpr SpecField repetitions    {"repetitions",                 nullptr,   "Repetitions",        1,   1000,            1};
inline constexpr SpecField pointDeadlineMs{"point_deadline_ms",           nullptr,   "Point deadline",     100, 86'400'000,      120'000};
inline constexpr SpecField warmupRequests {"warmup_requests",             nullptr,   "Warm-up requests",   0,   qint64(1) << 40, 0};
inline constexpr SpecField cooldownMs     {"cooldown_ms",                 nullptr,   "Cool-down",          0,   3'600'000,       0};
inline constexpr SpecField filesPerSize   {"document_root.files_per_size", nullptr,  "Files per size",     1,   100'000,         1};
// The client.
inline constexpr SpecField requests       {"client.requests",             "n",       "Requests per point", 1,   qint64(1) << 40, 200};
inline constexpr SpecField concurrency    {"client.concurrency",          "c",       "Concurrency",        1,   100'000,         1};
inline constexpr SpecField seconds        {"client.seconds",              "d",       "Seconds per point",  1,   86'400,          10};
inline constexpr SpecField clientThreads  {"client.threads",              "threads", "Client threads",     1,   256,             1};
inline constexpr SpecField timeoutMs      {"client.timeout_ms",           nullptr,   "Timeout",            1,   3'600'000,       30'000};
inline constexpr SpecField rate           {"client.rate",                 "R",       "Offered rate (req/s)", 1, 10'000'000,     1000};
inline constexpr SpecField rampUp         {"client.ramp_up_seconds",      nullptr,   "Ramp-up (s)",        0,   86'400,          5};
inline constexpr SpecField steady         {"client.steady_seconds",       nullptr,   "Steady state (s)",   1,   86'400,          30};
inline constexpr SpecField rampDown       {"client.ramp_down_seconds",    nullptr,   "Ramp-down (s)",      0,   86'400,          5};
inline constexpr SpecField closeAfter     {"client.close_after",          "close-after", "Close after (requests)", 0, 1'000'000'000, 0};
inline constexpr SpecField streams        {"client.streams",              "m",       "HTTP/2 streams per connection", 1, 1000,    1};
// A target ("pid" 0: none).
inline constexpr SpecField serverThreads  {"targets[].threads",           "threads", "Server threads",     1,   1024,            1};
inline constexpr SpecField fdLimit        {"targets[].fd_limit",          nullptr,   "fd limit",           0,   1 << 20,         0};
inline constexpr SpecField pid            {"targets[].pid",               nullptr,   "Pid",                1,   0x7fffffff,      0};
// clang-format on
} // namespace SpecFields

} // namespace servelab::lab
