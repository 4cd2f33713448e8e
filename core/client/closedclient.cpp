#include "closedclient.h"

#include "clientconnection.h"
#include "metrics/clock.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <netdb.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vector>

namespace servelab::client {

using metrics::monotonicMicros;

namespace {

bool resolve(const ClientOptions &options, sockaddr_storage *address, socklen_t *length,
             std::string *error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const std::string port = std::to_string(options.port);
    const int rc = getaddrinfo(options.host.c_str(), port.c_str(), &hints, &found);
    if (rc != 0 || !found) {
        *error = "cannot resolve '" + options.host + "': " + gai_strerror(rc);
        return false;
    }
    std::memcpy(address, found->ai_addr, found->ai_addrlen);
    *length = found->ai_addrlen;
    freeaddrinfo(found);
    return true;
}

std::string requestFor(const ClientOptions &options)
{
    std::string host = options.host;
    if (host.find(':') != std::string::npos)
        host = '[' + host + ']';
    if (options.port != 80)
        host += ':' + std::to_string(options.port);
    std::string request = "GET " + options.path + " HTTP/1.1\r\nHost: " + host +
                          "\r\nUser-Agent: ServeLab\r\nAccept: */*\r\n";
    if (!options.keepAlive)
        request += "Connection: close\r\n";
    request += "\r\n";
    return request;
}

} // namespace

ClosedClient::ClosedClient(ClientOptions options)
    : m_options(std::move(options)), m_wakeFd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{}

ClosedClient::~ClosedClient()
{
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void ClosedClient::stop()
{
    m_stop.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_wakeFd, &one, sizeof one);
}

LoadResult ClosedClient::run()
{
    LoadResult result;
    result.concurrency = m_options.concurrency;
    if (m_options.requests == 0 || m_options.concurrency < 1) {
        result.fatalError = "the number of requests and the concurrency must be at least 1";
        return result;
    }
    sockaddr_storage address{};
    socklen_t addressLength = 0;
    if (!resolve(m_options, &address, &addressLength, &result.fatalError))
        return result;
    const int epollFd = epoll_create1(EPOLL_CLOEXEC);
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.ptr = nullptr;
    if (epollFd < 0 || m_wakeFd < 0 || epoll_ctl(epollFd, EPOLL_CTL_ADD, m_wakeFd, &wake) != 0) {
        result.fatalError = std::string("cannot set up epoll: ") + std::strerror(errno);
        if (epollFd >= 0)
            ::close(epollFd);
        return result;
    }

    const std::string request = requestFor(m_options);
    std::vector<char> scratch(std::max<std::size_t>(m_options.readBufferBytes, 1024));
    const auto slots = static_cast<std::size_t>(std::min<std::uint64_t>(
        m_options.requests, static_cast<std::uint64_t>(m_options.concurrency)));
    std::vector<std::unique_ptr<ClientConnection>> connections;
    for (std::size_t i = 0; i < slots; ++i)
        connections.push_back(std::make_unique<ClientConnection>(epollFd, address, addressLength,
                                                                 request, m_options, scratch));

    const std::int64_t start = monotonicMicros();
    const std::int64_t deadline = m_options.deadlineMs > 0
                                      ? start + m_options.deadlineMs * 1000
                                      : std::numeric_limits<std::int64_t>::max();
    const std::int64_t timeout = std::int64_t(m_options.timeoutMs) * 1000;
    std::uint64_t issued = 0;

    auto record = [&](ClientConnection &c, const ClientConnection::Outcome &o) {
        ++result.completed;
        result.bytesRead += c.bytesRead();
        result.bodyBytes += c.bodyBytes();
        if (o.type == ClientConnection::Outcome::Completed) {
            ++result.ok;
            result.latency.record(monotonicMicros() - c.startedAt());
        } else {
            result.countError(o.error);
            if (o.error == ErrorKind::Status4xx || o.error == ErrorKind::Status5xx)
                result.latency.record(monotonicMicros() - c.startedAt());
        }
    };
    // Keeps a slot busy while requests remain: a request that fails at once frees it again.
    auto launch = [&](ClientConnection &c) {
        while (issued < m_options.requests && !m_stop.load(std::memory_order_acquire) &&
               monotonicMicros() < deadline) {
            ++issued;
            auto o = c.begin(monotonicMicros());
            if (o.type == ClientConnection::Outcome::Retry)
                o = c.begin(c.startedAt()); // the server closed a kept-alive connection
            if (o.type == ClientConnection::Outcome::Pending)
                return;
            record(c, o);
        }
    };

    for (auto &c : connections)
        launch(*c);
    epoll_event events[64];
    while (result.completed < issued && !m_stop.load(std::memory_order_acquire)) {
        const std::int64_t now = monotonicMicros();
        if (now >= deadline)
            break;
        const auto waitMs = std::clamp<std::int64_t>((deadline - now) / 1000 + 1, 0, 100);
        const int n = epoll_wait(epollFd, events, std::size(events), static_cast<int>(waitMs));
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<ClientConnection *>(events[i].data.ptr);
            if (!c)
                continue; // the stop eventfd
            auto o = c->onEvent(events[i].events);
            if (o.type == ClientConnection::Outcome::Retry)
                o = c->begin(c->startedAt());
            if (o.type == ClientConnection::Outcome::Pending)
                continue;
            record(*c, o);
            launch(*c);
        }
        const std::int64_t after = monotonicMicros();
        for (auto &c : connections) {
            if (c->busy() && after - c->startedAt() > timeout) {
                const auto kind =
                    c->connecting() ? ErrorKind::ConnectTimeout : ErrorKind::ReadTimeout;
                c->close();
                record(*c, {ClientConnection::Outcome::Failed, kind});
                launch(*c);
            }
        }
    }
    // Requests cut off by stop() or the deadline count once, as aborted.
    for (auto &c : connections) {
        if (c->busy()) {
            c->close();
            record(*c, {ClientConnection::Outcome::Failed, ErrorKind::AbortedAtDeadline});
        }
        result.connects += c->connectsMade();
    }
    result.elapsedMicros = monotonicMicros() - start;
    ::close(epollFd);
    return result;
}

} // namespace servelab::client
