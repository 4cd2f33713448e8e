// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the server's connection state machine (Connection, shared by every event
// model) driven through a socketpair, the input written in packets, the responses read and
// dropped, as an event loop would drive it. Each input is one connection to its end; a
// connection that neither finishes nor asks for more is a hang (abort after a bounded number
// of turns). The document root is the conformance table's (made once, in a temporary folder).
// Built a second time with FUZZ_HTTP2 (fuzz_h2connection): the server speaks HTTP/2 and every
// input follows the client preface, so that the fuzzer spends its time on frames (H2Session).
#include "fuzzinput.h"
#include "http/documentroot.h"
#include "server/acceptguard.h"
#include "server/connection.h"
#include "server/serveroptions.h"
#include "server/threadstate.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace servelab;

namespace {

struct Fixture
{
    std::string dir;
    http::DocumentRoot root;
    server::ServerOptions options;
    server::ConnectionLimit limit{1024};
    std::unique_ptr<server::LiveOptions> live;
    std::unique_ptr<server::ThreadState> state;

    Fixture()
    {
        char name[] = "/tmp/servelab-fuzz-XXXXXX";
        if (!mkdtemp(name))
            std::abort();
        dir = name;
        const auto write = [this](const char *file, std::size_t bytes) {
            const int fd = ::open((dir + "/" + file).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const std::string content(bytes, 'x');
            if (fd < 0 || ::write(fd, content.data(), content.size()) != ssize_t(bytes))
                std::abort();
            ::close(fd);
        };
        ::mkdir((dir + "/dir").c_str(), 0755);
        write("4K.bin", 4096);
        write("index.html", 14);
        write("dir/index.html", 13);
        write("64K.bin", 65536);
        std::string error;
        if (!root.open(dir, &error))
            std::abort();
        options.root = dir;
        options.mode = "epoll+copy";
#ifdef FUZZ_HTTP2
        options.http2 = true;
#endif
        live = std::make_unique<server::LiveOptions>(options);
        server::ServerShared shared{root, options, *live, limit, nullptr, false};
        state = std::make_unique<server::ThreadState>(shared);
    }
};

void drain(int fd)
{
    char sink[65536];
    while (::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static Fixture fixture;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair) != 0)
        std::abort();
    const int peer = pair[1];
    auto connection = std::make_unique<server::Connection>(pair[0], fixture.state->context);
    using Next = server::Connection::Next;
    // One turn of an event loop: run the connection until it waits for the peer, drop what it
    // wrote. False once it is closed.
    const auto turn = [&](Next next) {
        for (int guard = 0; guard < 100000; ++guard) {
            drain(peer);
            switch (next) {
            case Next::Close: return false;
            case Next::Read: return true;
            case Next::Write:
            case Next::Yield: next = connection->onWritable(); break;
            }
        }
        std::abort(); // neither done nor waiting: a hang
    };
    bool open = true;
#ifdef FUZZ_HTTP2
    static constexpr char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    if (::send(peer, preface, sizeof preface - 1, MSG_NOSIGNAL) < 0)
        std::abort();
#endif
    for (std::string_view packet : fuzz::packets(data, size)) {
        if (!open)
            break;
        if (::send(peer, packet.data(), packet.size(), MSG_NOSIGNAL) < 0 && errno != EAGAIN)
            break;
        open = turn(connection->onReadable(false));
    }
    if (open) {
        ::shutdown(peer, SHUT_WR); // the client is done: the connection must end
        open = turn(connection->onReadable(true));
        for (int i = 0; open && i < 1000; ++i)
            open = turn(connection->onReadable(true));
        if (open)
            std::abort(); // the peer closed, and the connection never did
    }
    connection.reset();
    ::close(peer);
    return 0;
}
