// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "clientreactor.h"
#include "requesttarget.h"
#include "stopsignal.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace servelab::client {

// A run of a scheduled model (rate: a fixed schedule; ramp: after each user's think time) on
// `policies.size()` threads, one ClientReactor and policy each: connections spread with
// threadShare(), connection j (counted across threads) first due at firstDue(j), until `end`
// or stop. Returns when every thread has ended.
void runScheduledThreads(const ClientOptions &options, const RequestTarget &target,
                         std::int64_t start, std::int64_t end,
                         const std::function<double(int)> &firstDue,
                         const std::vector<ReactorPolicy *> &policies, const StopSignal &stop);

} // namespace servelab::client
