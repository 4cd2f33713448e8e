// SPDX-License-Identifier: Apache-2.0
#include "tlserror.h"

#include <openssl/err.h>

namespace servelab::tls {

std::string takeErrors(const std::string &fallback)
{
    std::string text;
    while (const unsigned long code = ERR_get_error()) {
        const char *reason = ERR_reason_error_string(code);
        std::string part = reason ? reason : "error " + std::to_string(ERR_GET_REASON(code));
        if (text.find(part) != std::string::npos)
            continue;
        if (!text.empty())
            text += "; ";
        text += part;
    }
    return text.empty() ? fallback : text;
}

void clearErrors()
{
    ERR_clear_error();
}

} // namespace servelab::tls
