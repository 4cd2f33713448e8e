// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tlsprotocols.h"

#include <memory>
#include <string>

typedef struct ssl_st SSL;

namespace servelab::tls {

// The server side of TLS for the built-in servers: one OpenSSL context shared by every thread
// of a server (OpenSSL's contexts are safe to share once set up), a session cache and tickets
// for resumption, ALPN http/1.1, and kernel TLS when the transfer is sendfile.
class TlsServerContext
{
public:
    struct Settings
    {
        std::string certificate; // PEM files
        std::string privateKey;
        Protocols protocols;
        // Ask OpenSSL to hand the record layer to the kernel (SSL_OP_ENABLE_KTLS), so that
        // SSL_sendfile() can send a file without copying it through user space.
        bool kernelTls = false;
        // ALPN offers h2 before http/1.1 (the server speaks HTTP/2: --http2 on).
        bool http2 = false;
    };

    ~TlsServerContext();
    TlsServerContext(const TlsServerContext &) = delete;
    TlsServerContext &operator=(const TlsServerContext &) = delete;

    // Null with why: a certificate or key that cannot be read or do not match, bad protocols,
    // or kernel TLS asked for where the kernel has none (kernelTlsMissing()).
    static std::unique_ptr<TlsServerContext> create(const Settings &settings, std::string *error);

    // A server-side connection on the accepted socket `fd` (non-blocking), not yet shaken.
    SSL *accept(int fd) const;
    bool kernelTls() const { return m_kernelTls; }

    // Why this machine's kernel cannot do TLS itself, as a clause: the `tls` upper-layer
    // protocol missing from /proc/sys/net/ipv4/tcp_available_ulp (module not loaded or not
    // built). Empty when it can.
    static std::string kernelTlsMissing();

private:
    TlsServerContext() = default;

    struct ssl_ctx_st *m_context = nullptr;
    bool m_kernelTls = false;
};

} // namespace servelab::tls
