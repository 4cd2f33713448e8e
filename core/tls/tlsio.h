// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <sys/types.h>

typedef struct ssl_st SSL;

namespace servelab::tls {

// SSL_read() and SSL_write() with recv()'s and send()'s results, so that the code around them
// reads the same over TLS as over TCP (the server's Connection, the client's ClientConnection):
// bytes moved; 0 from receive() at the peer's end (close_notify, or a FIN without it, as a
// server that closes says it); -1 with errno EAGAIN to wait (either way: a record may need a
// read to write or a write to read), EPIPE or ECONNRESET when the peer went, EPROTO for a TLS
// error. The library's error queue is left empty.
ssize_t receive(SSL *ssl, void *into, std::size_t most);
ssize_t send(SSL *ssl, const void *data, std::size_t length);

} // namespace servelab::tls
