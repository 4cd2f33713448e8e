// SPDX-License-Identifier: Apache-2.0
#include "clientexchange.h"

namespace servelab::client {

ClientExchange::Outcome ClientExchange::judged(int status, std::uint64_t bodyBytes,
                                               std::optional<std::uint64_t> expected)
{
    if (expected && status == 200 && bodyBytes != *expected)
        return {Outcome::Failed, ErrorKind::WrongLength};
    if (status >= 500)
        return {Outcome::Failed, ErrorKind::Status5xx};
    if (status >= 400)
        return {Outcome::Failed, ErrorKind::Status4xx};
    return {Outcome::Completed};
}

} // namespace servelab::client
