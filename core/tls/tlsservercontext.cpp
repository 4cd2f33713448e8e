// SPDX-License-Identifier: Apache-2.0
#include "tlsservercontext.h"

#include "tlserror.h"

#include <openssl/ssl.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace servelab::tls {

namespace {

constexpr unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
constexpr unsigned char h2AndHttp11[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

// ALPN: h2 (when the server speaks it) or http/1.1, whichever the client offers, h2 first; a
// client that offers neither is answered without ALPN rather than refused, as nginx does.
int selectProtocol(SSL *, const unsigned char **out, unsigned char *outLength,
                   const unsigned char *in, unsigned int inLength, void *http2)
{
    unsigned char *chosen = nullptr;
    const bool h2 = http2 != nullptr;
    if (SSL_select_next_proto(&chosen, outLength, h2 ? h2AndHttp11 : http11,
                              h2 ? sizeof h2AndHttp11 : sizeof http11, in,
                              inLength) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

} // namespace

TlsServerContext::~TlsServerContext()
{
    SSL_CTX_free(m_context);
}

std::string TlsServerContext::kernelTlsMissing()
{
    const char *path = "/proc/sys/net/ipv4/tcp_available_ulp";
    std::ifstream in(path);
    const std::string ulps((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && ulps.empty())
        return std::string("cannot read ") + path;
    for (std::size_t at = ulps.find("tls"); at != std::string::npos;
         at = ulps.find("tls", at + 1)) {
        const bool start = at == 0 || ulps[at - 1] == ' ';
        const bool end = at + 3 == ulps.size() || ulps[at + 3] == ' ' || ulps[at + 3] == '\n';
        if (start && end)
            return {};
    }
    std::string listed = ulps.substr(0, ulps.find('\n'));
    return "this kernel has no 'tls' upper-layer protocol (" + std::string(path) + " lists '" +
           listed + "'; modprobe tls, or a kernel built with CONFIG_TLS)";
}

std::unique_ptr<TlsServerContext> TlsServerContext::create(const Settings &settings,
                                                           std::string *error)
{
    if (settings.kernelTls) {
        if (std::string why = kernelTlsMissing(); !why.empty()) {
            *error = "kernel TLS is unavailable: " + why;
            return nullptr;
        }
    }
    std::unique_ptr<TlsServerContext> self(new TlsServerContext);
    clearErrors();
    self->m_context = SSL_CTX_new(TLS_server_method());
    SSL_CTX *c = self->m_context;
    if (!c) {
        *error = "cannot set up TLS: " + takeErrors();
        return nullptr;
    }
    if (!settings.protocols.applyTo(c, error))
        return nullptr;
    if (SSL_CTX_use_certificate_chain_file(c, settings.certificate.c_str()) != 1) {
        *error = "cannot use the TLS certificate " + settings.certificate + ": " + takeErrors() +
                 " (a PEM file, readable)";
        return nullptr;
    }
    if (SSL_CTX_use_PrivateKey_file(c, settings.privateKey.c_str(), SSL_FILETYPE_PEM) != 1) {
        *error = "cannot use the TLS key " + settings.privateKey + ": " + takeErrors() +
                 " (a PEM file, readable, without a passphrase)";
        return nullptr;
    }
    if (SSL_CTX_check_private_key(c) != 1) {
        *error = "the TLS key " + settings.privateKey + " does not belong to the certificate " +
                 settings.certificate;
        clearErrors();
        return nullptr;
    }
    // Partial writes: a full socket returns what went out instead of retrying the whole
    // record; buffers released between requests (nginx does both).
    SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                            SSL_MODE_RELEASE_BUFFERS);
    // Resumption both ways: TLS 1.2 session ids from the server's cache, and tickets.
    static const unsigned char idContext[] = "servelab";
    SSL_CTX_set_session_id_context(c, idContext, sizeof idContext - 1);
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_SERVER);
    SSL_CTX_sess_set_cache_size(c, 20480);
    // The argument only says yes or no: any non-null pointer is "h2 too".
    static int yes = 1;
    SSL_CTX_set_alpn_select_cb(c, selectProtocol, settings.http2 ? &yes : nullptr);
    SSL_CTX_set_options(c, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    if (settings.kernelTls)
        SSL_CTX_set_options(c, SSL_OP_ENABLE_KTLS);
    self->m_kernelTls = settings.kernelTls;
    return self;
}

SSL *TlsServerContext::accept(int fd) const
{
    SSL *ssl = SSL_new(m_context);
    if (!ssl)
        return nullptr;
    SSL_set_fd(ssl, fd);
    SSL_set_accept_state(ssl);
    return ssl;
}

} // namespace servelab::tls
