// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace servelab::server {

// A mode is written "model+transfer" (design.md): the event model and the body transfer.
struct ServerMode
{
    std::string model;
    std::string transfer;

    std::string name() const { return model + '+' + transfer; }
};

// The modes this build can run here.
std::vector<ServerMode> availableModes();
// The modes that exist but cannot run here (uring without liburing or kernel support), each
// with the reason.
std::vector<std::pair<ServerMode, std::string>> unavailableModes();
// Empty if `mode` can run here, else one sentence saying why not (unknown model or transfer,
// a combination that does not exist, a model this machine cannot run).
std::string whyUnavailable(const ServerMode &mode);
std::string availableModeList(); // "epoll+sendfile, ..." for messages

// Parses and checks a mode name; on failure returns false with *error naming the problem.
bool parseServerMode(std::string_view text, ServerMode *mode, std::string *error);

} // namespace servelab::server
