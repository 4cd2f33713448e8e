// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "errorkind.h"
#include "latencyhistogram.h"
#include "tlsclientoptions.h"

#include <cstdint>
#include <memory>
#include <string>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_session_st SSL_SESSION;

namespace servelab::client {

// One client thread's TLS: its OpenSSL context (the thread's own, so nothing is locked on the
// request path), the session it resumes under the resume policy, and what its handshakes
// counted. The reactor makes one per thread and adds the counts to the thread's result.
class TlsClientContext
{
public:
    ~TlsClientContext();
    TlsClientContext(const TlsClientContext &) = delete;
    TlsClientContext &operator=(const TlsClientContext &) = delete;

    // Null with why (a CA file that cannot be read, protocols OpenSSL refuses). ALPN offers
    // h2 alone with `http2`, else http/1.1.
    static std::unique_ptr<TlsClientContext> create(const TlsClientOptions &options,
                                                    const std::string &host, bool http2,
                                                    std::string *error);

    HandshakePolicy policy() const { return m_policy; }
    // A client connection on the connected socket `fd`, its name to check and to send (SNI)
    // set, offering the session to resume (resume policy). Null when OpenSSL cannot make one.
    SSL *connect(int fd);
    // A handshake on `ssl` ended after `micros`: counted, and resumed ones told apart by the
    // library's own word (SSL_session_reused).
    void handshakeDone(SSL *ssl, std::int64_t micros);
    // A handshake failed: which kind (a certificate the check refused, or any other failure),
    // with OpenSSL's reason kept for the report (the first of each kind).
    ErrorKind handshakeFailed(SSL *ssl);

    std::uint64_t handshakes() const { return m_handshakes; }
    std::uint64_t resumed() const { return m_resumed; }
    const LatencyHistogram &handshakeTimes() const { return m_times; }
    const std::string &certificateProblem() const { return m_certificateProblem; }
    const std::string &handshakeProblem() const { return m_handshakeProblem; }

private:
    TlsClientContext() = default;
    static int sessionArrived(SSL *ssl, SSL_SESSION *session);

    SSL_CTX *m_context = nullptr;
    SSL_SESSION *m_session = nullptr; // the last one the server gave (resume policy)
    HandshakePolicy m_policy = HandshakePolicy::KeepAlive;
    std::string m_name; // checked against the certificate, and sent as SNI if a DNS name
    bool m_nameIsIp = false;
    bool m_verify = true;
    std::uint64_t m_handshakes = 0;
    std::uint64_t m_resumed = 0;
    LatencyHistogram m_times;
    std::string m_certificateProblem;
    std::string m_handshakeProblem;
};

} // namespace servelab::client
