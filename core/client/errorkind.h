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
};

inline constexpr std::size_t errorKindCount = 16;
using ErrorCounts = std::array<unsigned long long, errorKindCount>;

// A stable identifier ("connect_refused") for CSV and JSON, and a phrase for people.
std::string_view errorKindKey(ErrorKind kind);
std::string_view errorKindText(ErrorKind kind);

} // namespace servelab::client
