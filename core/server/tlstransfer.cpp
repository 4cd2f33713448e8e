// SPDX-License-Identifier: Apache-2.0
#include "tlstransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include "tls/tlsio.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace servelab::server {

namespace {
// A TLS record carries at most 16 KiB: what the head shares one with.
constexpr std::size_t recordBytes = 16 * 1024;
} // namespace

TlsTransfer::TlsTransfer(const std::string &name, const ServerOptions &options)
    : m_kind(name == "sendfile" ? Kind::Sendfile
             : name == "mmap"   ? Kind::Mmap
                                : Kind::Copy)
{
    retune(options);
}

void TlsTransfer::retune(const ServerOptions &options)
{
    m_chunk = std::max<std::size_t>(options.sendfileChunk, 4096);
    m_buffer.resize(std::max<std::size_t>(options.bufferSize, recordBytes));
    m_buffer.shrink_to_fit();
}

WriteStatus TlsTransfer::writeRecord(SSL *ssl, const char *data, std::size_t length,
                                     std::size_t *written)
{
    *written = 0;
    const ssize_t n = tls::send(ssl, data, length);
    if (n >= 0) {
        *written = static_cast<std::size_t>(n);
        return WriteStatus::Done;
    }
    return errno == EAGAIN ? WriteStatus::Again : WriteStatus::Error;
}

const char *TlsTransfer::bodyBytes(OutgoingResponse &r, std::size_t most, char *into,
                                   std::size_t *got)
{
    *got = 0;
    if (m_kind == Kind::Mmap) {
        if (!r.mapping && !(r.mapping = m_mappings.map(r.file)))
            return nullptr;
        *got = most;
        return r.mapping->data() + r.offset;
    }
    ssize_t n;
    do {
        n = pread(r.file.fd, into, most, r.offset);
    } while (n < 0 && errno == EINTR);
    if (n <= 0)
        return nullptr; // read error, or the file was truncated
    *got = static_cast<std::size_t>(n);
    return into;
}

// The head, and as much of the body as fills its record, in one SSL_write(). A retry after
// Again builds the same bytes again (nothing has advanced), as OpenSSL requires.
WriteStatus TlsTransfer::writeHead(SSL *ssl, OutgoingResponse &r, std::uint64_t *sent)
{
    const std::size_t headLeft = r.head.size() - r.headSent;
    char *buffer = m_buffer.data();
    std::size_t length = std::min(headLeft, m_buffer.size());
    std::memcpy(buffer, r.head.data() + r.headSent, length);
    std::size_t bodyPart = 0;
    if (length == headLeft && r.remaining > 0 && length < recordBytes) {
        const std::size_t room = recordBytes - length;
        const std::size_t most =
            static_cast<std::size_t>(std::min<std::uint64_t>(room, r.remaining));
        if (m_kind == Kind::Sendfile) {
            // The file is the kernel's to send: the head goes alone.
        } else {
            const char *bytes = bodyBytes(r, most, buffer + length, &bodyPart);
            if (!bytes)
                return WriteStatus::Error;
            if (bytes != buffer + length)
                std::memcpy(buffer + length, bytes, bodyPart);
            length += bodyPart;
        }
    }
    std::size_t written = 0;
    const WriteStatus status = writeRecord(ssl, buffer, length, &written);
    const std::size_t headWritten = std::min(written, headLeft);
    r.headSent += headWritten;
    r.offset += static_cast<off_t>(written - headWritten);
    r.remaining -= written - headWritten;
    *sent += written;
    return status;
}

WriteStatus TlsTransfer::write(SSL *ssl, OutgoingResponse &r, std::uint64_t *sent)
{
    while (r.headSent < r.head.size()) {
        const WriteStatus status = writeHead(ssl, r, sent);
        if (status != WriteStatus::Done)
            return status;
    }
    std::uint64_t budget = m_chunk;
    while (r.remaining > 0) {
        if (budget == 0)
            return WriteStatus::Yield;
        const auto most = static_cast<std::size_t>(std::min(r.remaining, budget));
        std::size_t written = 0;
        WriteStatus status = WriteStatus::Done;
        if (m_kind == Kind::Sendfile) {
            const ossl_ssize_t n = SSL_sendfile(ssl, r.file.fd, r.offset, most, 0);
            if (n < 0) {
                const int error = SSL_get_error(ssl, int(n));
                const bool again = error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ ||
                                   (error == SSL_ERROR_SYSCALL && errno == EAGAIN);
                // This thread's next connection must not find this one's errors queued.
                ERR_clear_error();
                return again ? WriteStatus::Again : WriteStatus::Error;
            }
            written = static_cast<std::size_t>(n);
            if (written < most)
                status = WriteStatus::Again;
        } else {
            std::size_t got = 0;
            const char *bytes =
                bodyBytes(r, std::min(most, m_kind == Kind::Copy ? m_buffer.size() : most),
                          m_buffer.data(), &got);
            if (!bytes)
                return WriteStatus::Error;
            status = writeRecord(ssl, bytes, got, &written);
        }
        r.offset += static_cast<off_t>(written);
        r.remaining -= written;
        *sent += written;
        budget -= std::min<std::uint64_t>(budget, written);
        if (status != WriteStatus::Done)
            return status;
    }
    return WriteStatus::Done;
}

} // namespace servelab::server
