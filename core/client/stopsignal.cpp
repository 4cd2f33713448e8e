// SPDX-License-Identifier: Apache-2.0
#include "stopsignal.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace servelab::client {

StopSignal::StopSignal() : m_fd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    if (!m_fd)
        m_errno = errno;
}

bool StopSignal::ready(std::string *error) const
{
    if (m_fd)
        return true;
    *error = std::string("cannot create an eventfd: ") + std::strerror(m_errno);
    return false;
}

StopSignal::~StopSignal() = default;

void StopSignal::raise()
{
    m_raised.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_fd.get(), &one, sizeof one);
}

bool StopSignal::watchIn(int epollFd) const
{
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr;
    return m_fd && epoll_ctl(epollFd, EPOLL_CTL_ADD, m_fd.get(), &event) == 0;
}

} // namespace servelab::client
