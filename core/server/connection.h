#pragma once

#include "http/requestparser.h"
#include "outgoingresponse.h"

#include <string>

namespace servelab::server {

struct LoopContext;

// The HTTP/1.1 state machine of one accepted socket, independent of the event model: the
// model calls onReadable()/onWritable() and acts on what they return. Reads stop while a
// response is being written, so a pipelining client gets back-pressure, not a growing buffer.
class Connection
{
public:
    enum class Next
    {
        Read,  // wait until the socket is readable
        Write, // wait until the socket is writable
        Yield, // runnable again at once, after the thread's other connections
        Close, // close the socket and forget the connection
    };

    Connection(int fd, LoopContext &context);
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;
    ~Connection();

    int fd() const { return m_fd; }
    bool writing() const { return m_writing; }

    Next onReadable();
    Next onWritable();

private:
    Next process();
    Next writeResponse();
    void startResponse(const http::Request &request);
    void startError(int status, bool keepAlive, bool http10, bool headOnly);
    void consume(std::size_t bytes);

    int m_fd;
    LoopContext &m_context;
    std::string m_in;
    std::size_t m_inStart = 0;
    http::RequestParser m_parser;
    std::uint64_t m_bodyToSkip = 0;
    OutgoingResponse m_out;
    bool m_writing = false;
    bool m_closeAfterResponse = false;
    bool m_peerClosed = false;
};

} // namespace servelab::server
