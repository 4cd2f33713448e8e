#include "httpdate.h"

#include <cstdio>

namespace servelab::http {

std::string formatHttpDate(std::time_t t)
{
    static constexpr const char *days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char *months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[40];
    const int n = std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                                days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900,
                                tm.tm_hour, tm.tm_min, tm.tm_sec);
    return std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
}

std::string_view DateCache::now()
{
    const std::time_t t = std::time(nullptr);
    if (t != m_second) {
        m_second = t;
        m_text = formatHttpDate(t);
    }
    return m_text;
}

} // namespace servelab::http
