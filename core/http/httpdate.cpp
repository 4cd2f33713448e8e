// SPDX-License-Identifier: Apache-2.0
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

std::time_t parseHttpDate(std::string_view text)
{
    static constexpr std::string_view days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr std::string_view months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    if (text.size() != 29 || text.substr(3, 2) != ", " || text.substr(25) != " GMT" ||
        text[7] != ' ' || text[11] != ' ' || text[16] != ' ' || text[19] != ':' || text[22] != ':')
        return -1;
    auto number = [&](std::size_t at, std::size_t length) {
        int value = 0;
        for (std::size_t i = at; i < at + length; ++i) {
            if (text[i] < '0' || text[i] > '9')
                return -1;
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    int month = -1;
    for (int i = 0; i < 12; ++i)
        if (text.substr(8, 3) == months[i])
            month = i;
    bool dayName = false;
    for (auto day : days)
        dayName |= text.substr(0, 3) == day;
    std::tm tm{};
    tm.tm_mday = number(5, 2);
    tm.tm_year = number(12, 4) - 1900;
    tm.tm_hour = number(17, 2);
    tm.tm_min = number(20, 2);
    tm.tm_sec = number(23, 2);
    tm.tm_mon = month;
    if (!dayName || month < 0 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_year < 70 ||
        tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 ||
        tm.tm_sec > 60)
        return -1;
    return timegm(&tm);
}

std::string_view DateCache::now()
{
    return format(std::time(nullptr));
}

std::string_view DateCache::format(std::time_t t)
{
    if (t != m_second) {
        m_second = t;
        m_text = formatHttpDate(t);
    }
    return m_text;
}

} // namespace servelab::http
