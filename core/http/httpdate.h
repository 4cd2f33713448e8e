// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ctime>
#include <string>
#include <string_view>

namespace servelab::http {

// IMF-fixdate (RFC 9110 §5.6.7), e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
std::string formatHttpDate(std::time_t t);

// Parses an IMF-fixdate; -1 for anything else. RFC 9110 §5.6.7 also lists two obsolete forms,
// which a recipient may accept; ignoring an If-Modified-Since it cannot read only costs a 200.
std::time_t parseHttpDate(std::string_view text);

// The current Date header value, formatted at most once a second. One per server thread.
class DateCache
{
public:
    std::string_view now();
    // t formatted, remembered until a different t is asked for.
    std::string_view format(std::time_t t);

private:
    std::time_t m_second = -1;
    std::string m_text;
};

} // namespace servelab::http
