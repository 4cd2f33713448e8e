// SPDX-License-Identifier: Apache-2.0
#include "connectiondriver.h"

#include "threadstate.h"

#include <algorithm>
#include <poll.h>

namespace servelab::server {

void serveToEnd(int fd, ThreadState &state, int stopFd)
{
    Connection connection(fd, state.context);
    Connection::Next next = Connection::Next::Read;
    while (next != Connection::Next::Close) {
        state.wake();
        if (next == Connection::Next::Yield) {
            next = connection.onWritable(); // nobody else to give way to on this thread
            continue;
        }
        pollfd fds[2] = {
            {fd, short(next == Connection::Next::Write ? POLLOUT : (POLLIN | POLLRDHUP)), 0},
            {stopFd, POLLIN, 0}};
        const auto wait =
            std::clamp<std::int64_t>(connection.deadlineMs() - state.context.nowMs, 0, 60'000);
        const int ready = poll(fds, 2, static_cast<int>(wait));
        state.wake();
        if (fds[1].revents)
            break; // the server is stopping: the destructor closes the socket
        if (ready == 0) {
            next = connection.onTimer();
        } else if (ready > 0) {
            const bool hangUp = fds[0].revents & (POLLHUP | POLLRDHUP | POLLERR);
            next = connection.writing() ? connection.onWritable() : connection.onReadable(hangUp);
        }
    }
}

} // namespace servelab::server
