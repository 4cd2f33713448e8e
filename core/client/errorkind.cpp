// SPDX-License-Identifier: Apache-2.0
#include "errorkind.h"

namespace servelab::client {

std::string_view errorKindKey(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::ConnectRefused: return "connect_refused";
    case ErrorKind::ConnectTimeout: return "connect_timeout";
    case ErrorKind::ConnectError: return "connect_error";
    case ErrorKind::FdExhausted: return "fd_exhausted";
    case ErrorKind::Reset: return "reset";
    case ErrorKind::EofBeforeResponse: return "eof_before_response";
    case ErrorKind::ParseError: return "parse_error";
    case ErrorKind::ReadTimeout: return "read_timeout";
    case ErrorKind::WriteError: return "write_error";
    case ErrorKind::Status4xx: return "status_4xx";
    case ErrorKind::Status5xx: return "status_5xx";
    case ErrorKind::WrongLength: return "wrong_length";
    case ErrorKind::WrongContent: return "wrong_content";
    case ErrorKind::AbortedAtDeadline: return "aborted_at_deadline";
    case ErrorKind::TlsCertificate: return "tls_certificate";
    case ErrorKind::TlsHandshake: return "tls_handshake";
    case ErrorKind::H2Reset: return "h2_reset";
    case ErrorKind::H2Goaway: return "h2_goaway";
    case ErrorKind::H2FlowControl: return "h2_flow_control";
    case ErrorKind::H2Unsupported: return "h2_unsupported";
    }
    return "unknown";
}

std::string_view errorKindText(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::ConnectRefused: return "connection refused";
    case ErrorKind::ConnectTimeout: return "connect timed out";
    case ErrorKind::ConnectError: return "connect failed";
    case ErrorKind::FdExhausted: return "client out of file descriptors (raise ulimit -n)";
    case ErrorKind::Reset: return "connection reset by the server";
    case ErrorKind::EofBeforeResponse: return "closed before a response";
    case ErrorKind::ParseError: return "malformed response";
    case ErrorKind::ReadTimeout: return "response timed out";
    case ErrorKind::WriteError: return "request could not be sent";
    case ErrorKind::Status4xx: return "4xx status";
    case ErrorKind::Status5xx: return "5xx status";
    case ErrorKind::WrongLength: return "body length differs from its framing or the expected size";
    case ErrorKind::WrongContent: return "body differs from the expected bytes";
    case ErrorKind::AbortedAtDeadline: return "aborted at the deadline";
    case ErrorKind::TlsCertificate:
        return "server certificate refused (--cacert FILE, or --insecure)";
    case ErrorKind::TlsHandshake: return "TLS handshake failed";
    case ErrorKind::H2Reset: return "stream reset by the server (RST_STREAM)";
    case ErrorKind::H2Goaway: return "connection ended by the server's GOAWAY";
    case ErrorKind::H2FlowControl: return "HTTP/2 flow-control error (a window was overrun)";
    case ErrorKind::H2Unsupported:
        return "the server does not speak HTTP/2 here (it answered HTTP/1.x, or ALPN chose "
               "another protocol)";
    }
    return "unknown";
}

} // namespace servelab::client
