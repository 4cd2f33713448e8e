// SPDX-License-Identifier: Apache-2.0
#include "listener.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace servelab::server {

Listener::~Listener() = default;

void Listener::stop()
{
    m_fd.reset();
}

bool Listener::open(const std::string &host, std::uint16_t port, int backlog, std::string *error)
{
    const std::string address = host == "localhost" ? std::string("127.0.0.1") : host;
    sockaddr_storage storage{};
    socklen_t length = 0;
    auto *v4 = reinterpret_cast<sockaddr_in *>(&storage);
    auto *v6 = reinterpret_cast<sockaddr_in6 *>(&storage);
    if (inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        if (error)
            *error = "'" + host + "' is not a numeric IP address";
        return false;
    }
    const std::string where = address + ':' + std::to_string(port);
    os::UniqueFd fd(socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) {
        if (error)
            *error = std::string("cannot create a socket: ") + std::strerror(errno);
        return false;
    }
    const int one = 1;
    setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd.get(), reinterpret_cast<sockaddr *>(&storage), length) != 0 ||
        listen(fd.get(), backlog) != 0) {
        if (error)
            *error = "cannot listen on " + where + ": " + std::strerror(errno);
        return false;
    }
    length = sizeof storage;
    getsockname(fd.get(), reinterpret_cast<sockaddr *>(&storage), &length);
    m_fd = std::move(fd);
    m_port = ntohs(storage.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
    return true;
}

bool Listener::deferAccept(int seconds, std::string *error)
{
    if (setsockopt(m_fd.get(), IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds) == 0)
        return true;
    if (error)
        *error = std::string("cannot defer accept (TCP_DEFER_ACCEPT): ") + std::strerror(errno);
    return false;
}

std::uint16_t Listener::freeLoopbackPort()
{
    const os::UniqueFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    const bool ok = fd &&
                    bind(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
                    getsockname(fd.get(), reinterpret_cast<sockaddr *>(&address), &length) == 0;
    return ok ? ntohs(address.sin_port) : 0;
}

} // namespace servelab::server
