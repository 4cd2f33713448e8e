// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace servelab::client {

// Why a request failed (design.md, "Units and numbers"). Each request is counted once.
enum class ErrorKind
{
    ConnectRefused,
    ConnectTimeout,
    ConnectError, // any other connect failure (unreachable, address in use, ...)
    FdExhausted,  // the client itself ran out of file descriptors (EMFILE/ENFILE)
    Reset,
    EofBeforeResponse,
    ParseError,
    ReadTimeout,
    WriteError,
    Status4xx,
    Status5xx,
    WrongLength,
    WrongContent,
    AbortedAtDeadline,
    TlsCertificate, // https: the server's certificate failed the check (OpenSSL's reason kept)
    TlsHandshake,   // https: any other handshake failure
    H2Reset,        // HTTP/2: the server reset the stream (RST_STREAM)
    H2Goaway,       // HTTP/2: the server's GOAWAY ended the connection with the stream in it
    H2FlowControl,  // HTTP/2: a FLOW_CONTROL_ERROR (a window was overrun)
    H2Unsupported,  // HTTP/2: the server answered HTTP/1.x, or ALPN chose another protocol
};

inline constexpr std::size_t errorKindCount = 20;
using ErrorCounts = std::array<unsigned long long, errorKindCount>;

// A stable identifier ("connect_refused") for CSV and JSON, and a phrase for people.
std::string_view errorKindKey(ErrorKind kind);
std::string_view errorKindText(ErrorKind kind);

} // namespace servelab::client
