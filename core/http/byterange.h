// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string_view>

namespace servelab::http {

// A Range request header applied to a representation of `size` bytes (RFC 9110 §14).
struct ByteRange
{
    enum Kind
    {
        Whole,         // no usable Range: send 200 with everything
        Partial,       // send 206 with bytes [first, last]
        Unsatisfiable, // send 416 with "Content-Range: bytes */size"
    } kind = Whole;
    std::uint64_t first = 0;
    std::uint64_t last = 0;

    std::uint64_t length() const { return last - first + 1; }
};

// Only single ranges are honoured; a multi-range or malformed header is ignored (Whole), which
// RFC 9110 §14.2 allows.
ByteRange resolveByteRange(std::string_view header, std::uint64_t size);

} // namespace servelab::http
