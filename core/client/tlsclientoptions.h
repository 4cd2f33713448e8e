// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tls/tlsprotocols.h"

#include <optional>
#include <string>
#include <string_view>

namespace servelab::client {

// How an https client makes its connections (the handshake policy):
//   keepalive  one full handshake per connection, requests kept alive on it (wrk);
//   new        a new connection and a full handshake for every request (ab without -k);
//   resume     a new connection for every request, resuming the thread's last session (TLS
//              1.3 ticket or TLS 1.2 session id): what a returning browser pays.
enum class HandshakePolicy
{
    KeepAlive,
    New,
    Resume,
};

std::string_view handshakePolicyName(HandshakePolicy policy);
std::optional<HandshakePolicy> handshakePolicyFromName(std::string_view name);

// The client's side of https: ClientOptions::tls.
struct TlsClientOptions
{
    bool enabled = false; // the URL was https://
    HandshakePolicy policy = HandshakePolicy::KeepAlive;
    tls::Protocols protocols;
    // The server's certificate is checked against this CA file (PEM), or the system's CAs when
    // empty, and its name against the URL's host (or serverName), unless insecure.
    std::string caFile;
    bool insecure = false;
    std::string serverName; // SNI and the name checked; empty: the URL's host
};

} // namespace servelab::client
