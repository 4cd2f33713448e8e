// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

// Small byte-level helpers for HTTP text (RFC 9110 §5.6). Written here because they must be
// allocation-free and exact about the grammar; no packaged library offers them as such.
namespace servelab::http {

bool isTokenChar(unsigned char c);
bool isToken(std::string_view s);
bool equalsIgnoreCase(std::string_view a, std::string_view b);
std::string_view trimOws(std::string_view s);
// Calls f(element) for each non-empty element of a comma-separated list, OWS trimmed.
template<typename F>
void forEachListElement(std::string_view list, F f)
{
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto element = trimOws(list.substr(0, comma));
        if (!element.empty())
            f(element);
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
}
// The value of one hex digit (either case), or -1.
int hexValue(char c);
// Strict 1*DIGIT without sign or spaces; nullopt on anything else or on overflow past 2^63-1.
std::optional<std::uint64_t> parseDecimal(std::string_view s);

} // namespace servelab::http
