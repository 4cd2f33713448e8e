// SPDX-License-Identifier: Apache-2.0
#include "epollset.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace servelab::server {

bool EpollSet::open(int listenFd, std::uint32_t listenEvents)
{
    m_epoll.reset(epoll_create1(EPOLL_CLOEXEC));
    m_wake.reset(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!m_epoll || !m_wake)
        return false;
    epoll_event listen{};
    listen.events = listenEvents;
    listen.data.ptr = listenTag();
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.ptr = wakeTag();
    return epoll_ctl(m_epoll.get(), EPOLL_CTL_ADD, listenFd, &listen) == 0 &&
           epoll_ctl(m_epoll.get(), EPOLL_CTL_ADD, m_wake.get(), &wake) == 0;
}

void EpollSet::wake()
{
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_wake.get(), &one, sizeof one);
}

void EpollSet::drainWake()
{
    std::uint64_t value;
    [[maybe_unused]] auto n = ::read(m_wake.get(), &value, sizeof value);
}

} // namespace servelab::server
