// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <atomic>
#include <string>

namespace servelab::client {

// Stops a client run from any thread: a flag every loop checks after each wake-up, and an
// eventfd in every loop's epoll set (level-triggered: it wakes them all, at once).
class StopSignal
{
public:
    StopSignal();
    StopSignal(const StopSignal &) = delete;
    StopSignal &operator=(const StopSignal &) = delete;
    ~StopSignal();

    // False with *error set when the eventfd could not be made (out of descriptors): a run
    // that could not be stopped does not start.
    bool ready(std::string *error) const;
    void raise();
    bool raised() const { return m_raised.load(std::memory_order_acquire); }
    // Adds the eventfd to `epollFd` (with a null data pointer, which no connection has).
    bool watchIn(int epollFd) const;

private:
    std::atomic<bool> m_raised{false};
    os::UniqueFd m_fd;
    int m_errno = 0; // why the eventfd could not be made
};

} // namespace servelab::client
