// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <cstdint>

namespace servelab::server {

// An epoll set watching a listening socket and an eventfd that wakes the loop from another
// thread: what the epoll loop and the poller's watcher both open first. An event's data.ptr is
// listenTag() or wakeTag() for those two (the loops tag their connections with themselves).
class EpollSet
{
public:
    static void *listenTag() { return &s_listenMark; }
    static void *wakeTag() { return &s_wakeMark; }

    // False with errno set when a descriptor cannot be made or added.
    bool open(int listenFd, std::uint32_t listenEvents);
    int fd() const { return m_epoll.get(); }
    // Any thread: makes the wake descriptor readable (it stays so until drainWake()).
    void wake();
    void drainWake();

private:
    // Distinct addresses to tell the listening socket and the wake-up eventfd from connections.
    static inline char s_listenMark = 0;
    static inline char s_wakeMark = 0;
    os::UniqueFd m_epoll;
    os::UniqueFd m_wake;
};

} // namespace servelab::server
