// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

// A TCP connection to 127.0.0.1:port, for the tests' own plain clients. Blocking: the fd once
// connected, -1 if the connect failed. Non-blocking: the fd with the connect under way (the
// caller sees whether it completes), -1 only if it failed at once.
inline int connectLoopback(quint16 port, bool nonBlocking = false)
{
    const int fd =
        socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 &&
        !(nonBlocking && errno == EINPROGRESS)) {
        ::close(fd);
        return -1;
    }
    return fd;
}
