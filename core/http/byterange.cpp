// SPDX-License-Identifier: Apache-2.0
#include "byterange.h"

#include "textutil.h"

namespace servelab::http {

ByteRange resolveByteRange(std::string_view header, std::uint64_t size)
{
    ByteRange range;
    if (header.size() < 7 || !equalsIgnoreCase(header.substr(0, 6), "bytes="))
        return range;
    const auto spec = trimOws(header.substr(6));
    const auto dash = spec.find('-');
    if (spec.find(',') != std::string_view::npos || dash == std::string_view::npos)
        return range;
    const auto firstText = spec.substr(0, dash);
    const auto lastText = spec.substr(dash + 1);
    if (firstText.empty()) {
        // suffix-range "-N": the last N bytes
        const auto suffix = parseDecimal(lastText);
        if (!suffix)
            return range;
        if (*suffix == 0 || size == 0) {
            range.kind = ByteRange::Unsatisfiable;
            return range;
        }
        range.kind = ByteRange::Partial;
        range.first = *suffix >= size ? 0 : size - *suffix;
        range.last = size - 1;
        return range;
    }
    const auto first = parseDecimal(firstText);
    const auto last =
        lastText.empty() ? std::optional<std::uint64_t>(UINT64_MAX) : parseDecimal(lastText);
    if (!first || !last || *last < *first)
        return range; // invalid: ignore the header
    if (*first >= size) {
        range.kind = ByteRange::Unsatisfiable;
        return range;
    }
    range.kind = ByteRange::Partial;
    range.first = *first;
    range.last = *last >= size ? size - 1 : *last;
    return range;
}

} // namespace servelab::http
