// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filemapping.h"
#include "http/documentroot.h"

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>

namespace servelab::server {

// What is left to send of one response: the head, then `remaining` bytes of `file` from `offset`.
struct OutgoingResponse
{
    std::string head;
    std::size_t headSent = 0;
    http::OpenedFile file;
    off_t offset = 0;
    std::uint64_t remaining = 0;
    std::shared_ptr<const FileMapping> mapping; // the mmap transfers': the body's bytes
    bool corked = false; // the sendfile transfer set TCP_CORK for this response

    bool done() const { return headSent == head.size() && remaining == 0; }
    void clear()
    {
        head.clear();
        headSent = 0;
        mapping.reset();
        file = http::OpenedFile{};
        offset = 0;
        remaining = 0;
        corked = false;
    }
};

} // namespace servelab::server
