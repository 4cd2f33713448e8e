// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace servelab::http {

// Turns a request-target's path into a path relative to the document root, or refuses it.
// Percent-decoding happens exactly once (so "%252e" is the literal name "%2e", never ".."),
// dot segments are removed (RFC 3986 §5.2.4), and a path that would climb above the root,
// or that holds NUL, control bytes or an encoded "/", is refused: the caller answers 400.
// The result has no leading "/"; the root itself is "".
std::optional<std::string> normalizedPath(std::string_view target);
// The same into `out`, whose capacity is reused: false where normalizedPath says nullopt.
bool normalizePath(std::string_view target, std::string *out);

} // namespace servelab::http
