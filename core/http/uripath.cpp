// SPDX-License-Identifier: Apache-2.0
#include "uripath.h"

#include "textutil.h"


namespace servelab::http {

namespace {

// Appends one decoded segment (no '/' in it) to `out`. An encoded '/' would let a name carry a
// separator past the dot-segment pass, so it is refused like NUL and the other control bytes.
bool appendDecoded(std::string_view segment, std::string *out)
{
    for (std::size_t i = 0; i < segment.size(); ++i) {
        unsigned char c = segment[i];
        if (c == '%') {
            if (i + 2 >= segment.size())
                return false;
            const int hi = hexValue(segment[i + 1]);
            const int lo = hexValue(segment[i + 2]);
            if (hi < 0 || lo < 0)
                return false;
            c = static_cast<unsigned char>(hi * 16 + lo);
            i += 2;
        }
        if (c < 0x20 || c == 0x7f || c == '/')
            return false;
        out->push_back(static_cast<char>(c));
    }
    return true;
}

} // namespace

// Built in place in `out`, segment by segment: a dot segment is taken back off the end (with
// the one before it for ".."), so the hot path allocates nothing once `out` has grown.
bool normalizePath(std::string_view target, std::string *out)
{
    out->clear();
    target = target.substr(0, target.find_first_of("?#"));
    if (target.empty() || target.front() != '/')
        return false;
    std::size_t start = 1;
    while (start <= target.size()) {
        auto end = target.find('/', start);
        if (end == std::string_view::npos)
            end = target.size();
        const std::size_t before = out->size(); // the end of the segments so far
        if (before > 0)
            out->push_back('/');
        const std::size_t from = out->size();
        if (!appendDecoded(target.substr(start, end - start), out))
            return false;
        const std::string_view segment(out->data() + from, out->size() - from);
        if (segment == "..") {
            if (before == 0)
                return false; // would leave the root
            const auto slash = out->rfind('/', before - 1);
            out->resize(slash == std::string::npos ? 0 : slash);
        } else if (segment.empty() || segment == ".") {
            out->resize(before);
        }
        start = end + 1;
    }
    return true;
}

std::optional<std::string> normalizedPath(std::string_view target)
{
    std::string path;
    if (!normalizePath(target, &path))
        return std::nullopt;
    return path;
}

} // namespace servelab::http
