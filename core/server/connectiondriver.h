// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection.h"

namespace servelab::server {

struct ThreadState;

// Serves one connection to its end on the calling thread, waiting in poll() for what the
// state machine asks for, or for the stop eventfd: the thread-per-connection way of the
// blocking model. The socket stays non-blocking so the shared state machine works unchanged;
// the thread is still dedicated to the connection, as with Coyote BIO.
void serveToEnd(int fd, ThreadState &state, int stopFd);

} // namespace servelab::server
