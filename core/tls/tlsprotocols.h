// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

typedef struct ssl_ctx_st SSL_CTX;

namespace servelab::tls {

// What both sides of a TLS connection are set up with, in the words a user types: the versions
// ("1.2", "1.3" or "1.2,1.3") and one cipher list for both (OpenSSL's names; those that begin
// with TLS_ are TLS 1.3 suites, the others TLS 1.2 ciphers), and the key-exchange groups
// ("X25519:P-256"). Empty cipher and group lists keep OpenSSL's defaults. The client, the
// built-in servers and the real servers' templates read the same three strings.
struct Protocols
{
    std::string versions = "1.2,1.3";
    std::string ciphers;
    std::string groups;

    // Why these cannot be used (an unknown version, a cipher list OpenSSL rejects), or empty.
    std::string check() const;
    // Sets `context` up with them; false with why.
    bool applyTo(SSL_CTX *context, std::string *error) const;
    // The TLS 1.2 part and the TLS 1.3 part of `ciphers` (OpenSSL takes them apart).
    std::string tls12Ciphers() const;
    std::string tls13Suites() const;
};

} // namespace servelab::tls
