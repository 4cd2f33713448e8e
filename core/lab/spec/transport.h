// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/tlsclientoptions.h"

#include <QString>

#include <optional>

namespace servelab::lab {

// One entry of an experiment's "transport" axis: "http", or "https" with the client's handshake
// policy after a colon ("https:resume"; plain "https" follows keep_alive: keepalive when the
// client keeps connections, else new, as ab over TLS), or HTTP/2: "h2c" (cleartext, prior
// knowledge) and "h2" (https, ALPN h2, connections kept). Each entry is a series of its own on
// the charts, so the cost of TLS, or of h2's framing, at each size is one look.
struct Transport
{
    bool https = false;
    bool http2 = false;
    std::optional<client::HandshakePolicy> policy; // none: follows keep_alive

    // What the points record and export: "http/1.1", "h2c" or "h2".
    QString protocol() const;

    // False with what is wrong (without the key's name).
    static bool parse(const QString &text, Transport *out, QString *error);
    // The policy a client with `keepAlive` uses under this entry.
    client::HandshakePolicy policyFor(bool keepAlive) const;
};

} // namespace servelab::lab
