// SPDX-License-Identifier: Apache-2.0
#include "tlsio.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <cerrno>

namespace servelab::tls {

namespace {

// What a failed call means, as recv()/send() would say it.
ssize_t failure(SSL *ssl, bool reading)
{
    const int error = SSL_get_error(ssl, 0);
    const int saved = errno;
    ERR_clear_error();
    switch (error) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE: errno = EAGAIN; return -1;
    case SSL_ERROR_ZERO_RETURN: return reading ? 0 : (errno = EPIPE, -1);
    case SSL_ERROR_SYSCALL:
        if (saved == 0) {
            if (reading)
                return 0;
            errno = EPIPE;
        } else {
            errno = saved;
        }
        return -1;
    default: errno = EPROTO; return -1;
    }
}

} // namespace

ssize_t receive(SSL *ssl, void *into, std::size_t most)
{
    std::size_t got = 0;
    errno = 0;
    if (SSL_read_ex(ssl, into, most, &got) == 1)
        return static_cast<ssize_t>(got);
    return failure(ssl, true);
}

ssize_t send(SSL *ssl, const void *data, std::size_t length)
{
    std::size_t written = 0;
    errno = 0;
    if (SSL_write_ex(ssl, data, length, &written) == 1)
        return static_cast<ssize_t>(written);
    return failure(ssl, false);
}

} // namespace servelab::tls
