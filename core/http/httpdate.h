#pragma once

#include <ctime>
#include <string>
#include <string_view>

namespace servelab::http {

// IMF-fixdate (RFC 9110 §5.6.7), e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
std::string formatHttpDate(std::time_t t);

// The current Date header value, formatted at most once a second. One per server thread.
class DateCache
{
public:
    std::string_view now();

private:
    std::time_t m_second = -1;
    std::string m_text;
};

} // namespace servelab::http
