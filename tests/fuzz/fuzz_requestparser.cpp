// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the request parser fed a connection's bytes in packets, pipelined requests
// one after another, as the servers feed it. Checks what a server relies on: a finished head is
// inside what arrived, a target starts with "/" (or is "*"), an error is one of the statuses the
// servers answer with.
#include "fuzzinput.h"
#include "http/requestparser.h"

#include <cstdlib>
#include <string>

using namespace servelab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    http::RequestParser parser;
    std::string buffer;
    for (std::string_view packet : fuzz::packets(data, size)) {
        buffer.append(packet);
        for (;;) {
            const auto status = parser.parse(buffer);
            if (status == http::RequestParser::Status::NeedMore)
                break;
            if (status == http::RequestParser::Status::Error) {
                const int code = parser.errorStatus();
                if (code != 400 && code != 414 && code != 431 && code != 501 && code != 505)
                    std::abort();
                return 0; // the server answers and closes
            }
            if (parser.headLength() == 0 || parser.headLength() > buffer.size())
                std::abort();
            const auto &target = parser.request().target;
            if (target.empty() || (target[0] != '/' && target != "*"))
                std::abort();
            buffer.erase(0, parser.headLength());
            parser.reset();
        }
    }
    return 0;
}
