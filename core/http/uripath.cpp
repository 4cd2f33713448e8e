#include "uripath.h"

#include "textutil.h"

#include <vector>

namespace servelab::http {

namespace {

// Decodes one segment (no '/' in it). An encoded '/' would let a name carry a separator past
// the dot-segment pass, so it is refused like NUL and the other control bytes.
std::optional<std::string> decodeSegment(std::string_view segment)
{
    std::string out;
    out.reserve(segment.size());
    for (std::size_t i = 0; i < segment.size(); ++i) {
        unsigned char c = segment[i];
        if (c == '%') {
            if (i + 2 >= segment.size())
                return std::nullopt;
            const int hi = hexValue(segment[i + 1]);
            const int lo = hexValue(segment[i + 2]);
            if (hi < 0 || lo < 0)
                return std::nullopt;
            c = static_cast<unsigned char>(hi * 16 + lo);
            i += 2;
        }
        if (c < 0x20 || c == 0x7f || c == '/')
            return std::nullopt;
        out.push_back(static_cast<char>(c));
    }
    return out;
}

} // namespace

std::optional<std::string> normalizedPath(std::string_view target)
{
    target = target.substr(0, target.find_first_of("?#"));
    if (target.empty() || target.front() != '/')
        return std::nullopt;
    std::vector<std::string> segments;
    std::size_t start = 1;
    while (start <= target.size()) {
        auto end = target.find('/', start);
        if (end == std::string_view::npos)
            end = target.size();
        auto segment = decodeSegment(target.substr(start, end - start));
        if (!segment)
            return std::nullopt;
        if (*segment == "..") {
            if (segments.empty())
                return std::nullopt; // would leave the root
            segments.pop_back();
        } else if (!segment->empty() && *segment != ".") {
            segments.push_back(std::move(*segment));
        }
        start = end + 1;
    }
    std::string path;
    for (const auto &segment : segments) {
        if (!path.empty())
            path.push_back('/');
        path += segment;
    }
    return path;
}

} // namespace servelab::http
