// SPDX-License-Identifier: Apache-2.0
// The least a server can do per request, as a ceiling for compare_peers.sh section 1: one
// thread, one edge-triggered epoll set, every request answered with the same 4 KiB from memory
// (no file, no parsing beyond the blank line that ends a head, no timers, no logs). What a real
// server adds is measured against this. Hand-written: no package has such a thing.
//
//   bare_server PORT [BODY_BYTES]     listens on 127.0.0.1:PORT until killed
#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <string_view>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

struct Client
{
    int fd = -1;
    std::string pending;     // request bytes after the last complete head
    std::size_t unsent = 0;  // bytes of the answer still to write (a full socket)
    std::size_t answers = 0; // answers owed after those
};

std::string response;

// Writes what is owed; false when the connection is done with (an error).
bool flush(Client &c)
{
    while (c.unsent > 0 || c.answers > 0) {
        if (c.unsent == 0) {
            c.unsent = response.size();
            --c.answers;
        }
        const ssize_t n =
            ::send(c.fd, response.data() + (response.size() - c.unsent), c.unsent, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN;
        c.unsent -= static_cast<std::size_t>(n);
    }
    return true;
}

// Reads all there is; false when the peer has gone.
bool readRequests(Client &c)
{
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
        if (n == 0)
            return false;
        if (n < 0)
            return errno == EAGAIN;
        c.pending.append(buffer, static_cast<std::size_t>(n));
        std::size_t at = 0;
        for (std::size_t end; (end = c.pending.find("\r\n\r\n", at)) != std::string::npos;) {
            ++c.answers;
            at = end + 4;
        }
        c.pending.erase(0, at);
        if (static_cast<std::size_t>(n) < sizeof buffer)
            return true; // a short read emptied the socket
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bare_server PORT [BODY_BYTES]\n");
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const std::size_t body = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
    response = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body) + "\r\n\r\n" +
               std::string(body, 'x');

    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        listen(listener, 511) != 0) {
        std::fprintf(stderr, "bare_server: cannot listen on 127.0.0.1:%d: %s\n", port,
                     std::strerror(errno));
        return 1;
    }
    const int epoll = epoll_create1(EPOLL_CLOEXEC);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr; // the listener
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);

    std::vector<epoll_event> events(256);
    for (;;) {
        const int ready = epoll_wait(epoll, events.data(), static_cast<int>(events.size()), -1);
        for (int i = 0; i < ready; ++i) {
            auto *c = static_cast<Client *>(events[i].data.ptr);
            if (!c) {
                const int fd = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd < 0)
                    continue;
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                c = new Client;
                c->fd = fd;
                epoll_event e{};
                e.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
                e.data.ptr = c;
                epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
                continue;
            }
            const bool alive = (!(events[i].events & EPOLLIN) || readRequests(*c)) && flush(*c) &&
                               !(events[i].events & (EPOLLHUP | EPOLLERR));
            if (!alive) {
                ::close(c->fd);
                delete c;
            }
        }
    }
}
