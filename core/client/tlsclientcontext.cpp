// SPDX-License-Identifier: Apache-2.0
#include "tlsclientcontext.h"

#include "tls/tlserror.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

namespace servelab::client {

namespace {
constexpr unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
constexpr unsigned char h2[] = {2, 'h', '2'};

bool isIpAddress(const std::string &name)
{
    unsigned char address[16];
    return inet_pton(AF_INET, name.c_str(), address) == 1 ||
           inet_pton(AF_INET6, name.c_str(), address) == 1;
}
} // namespace

TlsClientContext::~TlsClientContext()
{
    SSL_SESSION_free(m_session);
    SSL_CTX_free(m_context);
}

std::unique_ptr<TlsClientContext> TlsClientContext::create(const TlsClientOptions &options,
                                                           const std::string &host, bool http2,
                                                           std::string *error)
{
    std::unique_ptr<TlsClientContext> self(new TlsClientContext);
    tls::clearErrors();
    self->m_context = SSL_CTX_new(TLS_client_method());
    SSL_CTX *c = self->m_context;
    if (!c) {
        *error = "cannot set up TLS: " + tls::takeErrors();
        return nullptr;
    }
    if (!options.protocols.applyTo(c, error))
        return nullptr;
    self->m_policy = options.policy;
    self->m_verify = !options.insecure;
    self->m_name = options.serverName.empty() ? host : options.serverName;
    self->m_nameIsIp = isIpAddress(self->m_name);
    if (self->m_verify) {
        const bool loaded =
            options.caFile.empty()
                ? SSL_CTX_set_default_verify_paths(c) == 1
                : SSL_CTX_load_verify_locations(c, options.caFile.c_str(), nullptr) == 1;
        if (!loaded) {
            *error = "cannot read the CA file " + options.caFile + ": " + tls::takeErrors() +
                     " (a PEM file; --insecure skips the check)";
            return nullptr;
        }
        SSL_CTX_set_verify(c, SSL_VERIFY_PEER, nullptr);
    }
    if (http2)
        SSL_CTX_set_alpn_protos(c, h2, sizeof h2);
    else
        SSL_CTX_set_alpn_protos(c, http11, sizeof http11);
    SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (self->m_policy == HandshakePolicy::Resume) {
        // Sessions come to sessionArrived() (TLS 1.3 tickets arrive after the handshake, with
        // the first answer); the library keeps no cache of its own.
        SSL_CTX_set_app_data(c, self.get());
        SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
        SSL_CTX_sess_set_new_cb(c, &TlsClientContext::sessionArrived);
    } else {
        SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    }
    return self;
}

int TlsClientContext::sessionArrived(SSL *ssl, SSL_SESSION *session)
{
    auto *self = static_cast<TlsClientContext *>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
    if (!self)
        return 0;
    SSL_SESSION_free(self->m_session);
    self->m_session = session;
    return 1; // the reference is ours now
}

SSL *TlsClientContext::connect(int fd)
{
    SSL *ssl = SSL_new(m_context);
    if (!ssl)
        return nullptr;
    SSL_set_fd(ssl, fd);
    SSL_set_connect_state(ssl);
    if (!m_nameIsIp)
        SSL_set_tlsext_host_name(ssl, m_name.c_str());
    if (m_verify) {
        X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
        if (m_nameIsIp)
            X509_VERIFY_PARAM_set1_ip_asc(param, m_name.c_str());
        else
            X509_VERIFY_PARAM_set1_host(param, m_name.c_str(), 0);
    }
    if (m_session && m_policy == HandshakePolicy::Resume) {
        // A copy for each connection: OpenSSL 3.0 can mark the session a TLS 1.3 connection
        // resumed with as not resumable once that connection ends (seen here under load: up
        // to 15 of 40 handshakes went full, the stored session's flag cleared between two
        // connects), which would cost the next connections a full handshake unasked.
        SSL_SESSION *copy = SSL_SESSION_dup(m_session);
        SSL_set_session(ssl, copy ? copy : m_session);
        SSL_SESSION_free(copy); // the connection holds its own reference
    }
    return ssl;
}

void TlsClientContext::handshakeDone(SSL *ssl, std::int64_t micros)
{
    ++m_handshakes;
    if (SSL_session_reused(ssl))
        ++m_resumed;
    m_times.record(micros);
}

ErrorKind TlsClientContext::handshakeFailed(SSL *ssl)
{
    const long verify = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
    if (m_verify && verify != X509_V_OK) {
        tls::clearErrors();
        if (m_certificateProblem.empty())
            m_certificateProblem = X509_verify_cert_error_string(verify);
        return ErrorKind::TlsCertificate;
    }
    const std::string reason = tls::takeErrors("the server closed the connection mid-handshake");
    if (m_handshakeProblem.empty())
        m_handshakeProblem = reason;
    return ErrorKind::TlsHandshake;
}

} // namespace servelab::client
