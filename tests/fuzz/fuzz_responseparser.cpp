// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the client's response parser fed a server's bytes in packets. Checks what
// the client relies on: a finished head is inside what arrived and its status is three digits.
#include "client/responseparser.h"
#include "fuzzinput.h"

#include <cstdlib>
#include <string>

using namespace servelab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    client::ResponseParser parser;
    std::string buffer;
    for (std::string_view packet : fuzz::packets(data, size)) {
        buffer.append(packet);
        const auto status = parser.parse(buffer);
        if (status == client::ResponseParser::Status::NeedMore)
            continue;
        if (status == client::ResponseParser::Status::Error)
            return 0;
        if (parser.headLength() == 0 || parser.headLength() > buffer.size())
            std::abort();
        if (parser.status() < 100 || parser.status() > 999)
            std::abort();
        return 0;
    }
    return 0;
}
