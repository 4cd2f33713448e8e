// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace servelab::http {

// Whether a Host field value is a valid authority for HTTP (RFC 9110 §7.2): uri-host [":" port]
// as RFC 3986 §3.2.2-3 writes them — an IP-literal in brackets, an IPv4 address or a reg-name
// (unreserved / pct-encoded / sub-delims), then digits. No userinfo: "@" is not allowed. An
// empty value is valid (a target URI without authority, RFC 9112 §3.2).
bool isValidHostField(std::string_view value);

} // namespace servelab::http
