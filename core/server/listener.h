// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <cstdint>
#include <string>

namespace servelab::server {

// A non-blocking listening TCP socket on a numeric address (or "localhost").
class Listener
{
public:
    Listener() = default;
    Listener(const Listener &) = delete;
    Listener &operator=(const Listener &) = delete;
    ~Listener();

    bool open(const std::string &host, std::uint16_t port, int backlog, std::string *error);
    // TCP_DEFER_ACCEPT: connections reach accept() once data came, or after `seconds`.
    bool deferAccept(int seconds, std::string *error);
    // A loopback port nothing listens on now (bind port 0, read it, close); 0 on failure.
    // Another process may take it before the caller binds: callers report that case clearly.
    static std::uint16_t freeLoopbackPort();
    void stop();
    int fd() const { return m_fd.get(); }
    std::uint16_t port() const { return m_port; }

private:
    os::UniqueFd m_fd;
    std::uint16_t m_port = 0;
};

} // namespace servelab::server
