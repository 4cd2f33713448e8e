// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"
#include "mappingcache.h"

#include <cstdint>
#include <string>
#include <vector>

typedef struct ssl_st SSL;

namespace servelab::server {

struct ServerOptions;

// How a response body travels over TLS (design.md: body transfer, over https). One instance per
// server thread, beside the plain transfer of the same name:
//   copy      pread() into the thread's buffer, SSL_write() from it;
//   mmap      SSL_write() straight from the file's kept mapping (the encryption is the one
//             copy);
//   sendfile  kernel TLS: SSL_sendfile() hands the file to the kernel, which encrypts it on its
//             way out, zero-copy. Only with a connection whose sending side the kernel took
//             over (the connection checks that and refuses the others).
// The head goes in one record with the body's first bytes (copied behind it in the buffer), so
// a small file is one record and one segment, as nginx sends it.
class TlsTransfer
{
public:
    TlsTransfer(const std::string &name, const ServerOptions &options);
    void retune(const ServerOptions &options);
    WriteStatus write(SSL *ssl, OutgoingResponse &response, std::uint64_t *sent);

private:
    enum class Kind
    {
        Copy,
        Mmap,
        Sendfile,
    };
    // One SSL_write() of `length` bytes at `data`; *written is what went out.
    static WriteStatus writeRecord(SSL *ssl, const char *data, std::size_t length,
                                   std::size_t *written);
    WriteStatus writeHead(SSL *ssl, OutgoingResponse &r, std::uint64_t *sent);
    // The next `most` bytes of the body at its offset: from the mapping, or read into the
    // buffer at `into`. Null: the file failed.
    const char *bodyBytes(OutgoingResponse &r, std::size_t most, char *into, std::size_t *got);

    Kind m_kind;
    std::uint64_t m_chunk = 0;
    std::vector<char> m_buffer;
    MappingCache m_mappings; // mmap's
};

} // namespace servelab::server
