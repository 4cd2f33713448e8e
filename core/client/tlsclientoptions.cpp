// SPDX-License-Identifier: Apache-2.0
#include "tlsclientoptions.h"

#include <array>

namespace servelab::client {

namespace {
constexpr std::array<std::string_view, 3> policyNames = {"keepalive", "new", "resume"};
}

std::string_view handshakePolicyName(HandshakePolicy policy)
{
    return policyNames[static_cast<std::size_t>(policy)];
}

std::optional<HandshakePolicy> handshakePolicyFromName(std::string_view name)
{
    for (std::size_t i = 0; i < policyNames.size(); ++i)
        if (policyNames[i] == name)
            return HandshakePolicy(i);
    return std::nullopt;
}

} // namespace servelab::client
