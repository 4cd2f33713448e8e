// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace servelab::tls {

// OpenSSL's error queue of this thread as one line, its reasons joined by "; " (what a user can
// search for: "certificate verify failed", "wrong version number"), and the queue emptied.
// `fallback` when the queue is empty (a syscall error, say).
std::string takeErrors(const std::string &fallback = "unknown TLS error");

// Drops this thread's queued errors (after a failure that was handled, so that the next one is
// not reported with an old reason in front).
void clearErrors();

} // namespace servelab::tls
