// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

// What the fuzz harnesses share: the input cut into packets, as a network delivers it (h2o's
// harnesses do the same), so that every parser meets its input split at every place. The first
// byte chooses the packet sizes; the rest is the bytes.
namespace servelab::fuzz {

inline std::vector<std::string_view> packets(const std::uint8_t *data, std::size_t size)
{
    std::vector<std::string_view> out;
    if (size == 0)
        return out;
    std::size_t step = 1 + data[0] % 61;
    const auto *bytes = reinterpret_cast<const char *>(data + 1);
    std::size_t left = size - 1;
    while (left > 0) {
        const std::size_t n = step < left ? step : left;
        out.emplace_back(bytes, n);
        bytes += n;
        left -= n;
        step = 1 + (step * 7 + 3) % 61;
    }
    return out;
}

} // namespace servelab::fuzz
