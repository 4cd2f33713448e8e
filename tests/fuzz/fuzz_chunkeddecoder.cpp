// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness, differential: http::ChunkedDecoder (a state machine fed in packets) against
// the recursive-descent reference of the same RFC 9112 §7.1 grammar (tests/support). Any
// disagreement — on Done/Error/NeedMore, on where the body ends, on its size, on the limit —
// aborts: two readings of one framing that differ are what request smuggling is made of.
#include "../support/chunkedreference.h"
#include "fuzzinput.h"
#include "http/chunkeddecoder.h"

#include <cstdlib>

using namespace servelab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 2)
        return 0;
    // The first byte picks the body limit, the packets (fuzzinput.h) take the rest.
    const std::uint64_t maxBody = data[0] & 1 ? 1 << 20 : data[0] >> 1;
    const auto pieces = fuzz::packets(data + 1, size - 1);
    std::string_view whole(reinterpret_cast<const char *>(data + 2), size - 2);
    const auto expected = chunkedreference::parse(whole, maxBody);

    http::ChunkedDecoder decoder(maxBody);
    auto status = http::ChunkedDecoder::Status::NeedMore;
    std::size_t total = 0;
    for (std::string_view packet : pieces) {
        std::size_t used = 0;
        status = decoder.feed(packet, &used);
        total += used;
        if (status != http::ChunkedDecoder::Status::NeedMore)
            break;
        if (used != packet.size())
            std::abort(); // NeedMore must have taken every byte
    }
    if (int(status) != int(expected.verdict) || decoder.tooLarge() != expected.tooLarge)
        std::abort();
    if (status == http::ChunkedDecoder::Status::Done &&
        (total != expected.used || decoder.bodyBytes() != expected.bodyBytes))
        std::abort();
    return 0;
}
