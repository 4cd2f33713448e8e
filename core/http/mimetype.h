// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace servelab::http {

// Content-Type for a file name, from its extension; application/octet-stream when unknown.
std::string_view mimeTypeFor(std::string_view fileName);

} // namespace servelab::http
