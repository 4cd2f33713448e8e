// SPDX-License-Identifier: Apache-2.0
#include "mimetype.h"

#include "textutil.h"

#include <array>
#include <utility>

namespace servelab::http {

std::string_view mimeTypeFor(std::string_view fileName)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 18> types{{
        {"html", "text/html; charset=utf-8"},
        {"htm", "text/html; charset=utf-8"},
        {"txt", "text/plain; charset=utf-8"},
        {"css", "text/css"},
        {"js", "text/javascript"},
        {"json", "application/json"},
        {"xml", "application/xml"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},
        {"webp", "image/webp"},
        {"ico", "image/vnd.microsoft.icon"},
        {"pdf", "application/pdf"},
        {"wasm", "application/wasm"},
        {"gz", "application/gzip"},
        {"bin", "application/octet-stream"},
    }};
    const auto slash = fileName.rfind('/');
    const auto base = slash == std::string_view::npos ? fileName : fileName.substr(slash + 1);
    const auto dot = base.rfind('.');
    if (dot != std::string_view::npos && dot > 0) {
        const auto extension = base.substr(dot + 1);
        for (const auto &[ext, type] : types)
            if (equalsIgnoreCase(ext, extension))
                return type;
    }
    return "application/octet-stream";
}

} // namespace servelab::http
