#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace servelab::server {

// A mode is written "model+transfer" (design.md): the event model and the body transfer.
struct ServerMode
{
    std::string model;
    std::string transfer;

    std::string name() const { return model + '+' + transfer; }
};

// The modes this build can run.
std::vector<ServerMode> availableModes();
std::string availableModeList(); // "epoll+sendfile, ..." for messages

// Parses and checks a mode name; on failure returns false with *error naming the problem.
bool parseServerMode(std::string_view text, ServerMode *mode, std::string *error);

} // namespace servelab::server
