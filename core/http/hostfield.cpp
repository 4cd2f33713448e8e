// SPDX-License-Identifier: Apache-2.0
#include "hostfield.h"

#include "textutil.h"

#include <arpa/inet.h>

namespace servelab::http {

namespace {

bool isUnreserved(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '-' || c == '.' || c == '_' || c == '~';
}

bool isSubDelim(unsigned char c)
{
    return std::string_view("!$&'()*+,;=").find(char(c)) != std::string_view::npos;
}

// reg-name = *( unreserved / pct-encoded / sub-delims ); an IPv4 address is one too.
bool isRegName(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '%') {
            if (i + 2 >= s.size() || hexValue(s[i + 1]) < 0 || hexValue(s[i + 2]) < 0)
                return false;
            i += 2;
        } else if (!isUnreserved(c) && !isSubDelim(c)) {
            return false;
        }
    }
    return true;
}

// IP-literal = "[" ( IPv6address / IPvFuture ) "]", without the brackets here.
bool isIpLiteral(std::string_view s)
{
    if (s.size() > 1 && (s[0] == 'v' || s[0] == 'V')) {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        std::size_t i = 1;
        while (i < s.size() && hexValue(s[i]) >= 0)
            ++i;
        if (i == 1 || i >= s.size() || s[i] != '.' || i + 1 == s.size())
            return false;
        for (++i; i < s.size(); ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (!isUnreserved(c) && !isSubDelim(c) && c != ':')
                return false;
        }
        return true;
    }
    // inet_pton's grammar for AF_INET6 is RFC 4291 §2.2's, which RFC 3986's IPv6address is.
    if (s.empty() || s.size() > 45) // INET6_ADDRSTRLEN - 1
        return false;
    char text[46];
    s.copy(text, s.size());
    text[s.size()] = '\0';
    in6_addr address;
    return ::inet_pton(AF_INET6, text, &address) == 1;
}

} // namespace

bool isValidHostField(std::string_view value)
{
    std::string_view port;
    if (!value.empty() && value.front() == '[') {
        const auto close = value.find(']');
        if (close == std::string_view::npos || !isIpLiteral(value.substr(1, close - 1)))
            return false;
        const auto rest = value.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            return false;
        port = rest.empty() ? rest : rest.substr(1);
    } else {
        const auto colon = value.find(':');
        if (!isRegName(value.substr(0, colon)))
            return false;
        if (colon != std::string_view::npos)
            port = value.substr(colon + 1);
    }
    for (const char c : port) // port = *DIGIT
        if (c < '0' || c > '9')
            return false;
    return true;
}

} // namespace servelab::http
