#include "servermode.h"

namespace servelab::server {

std::vector<ServerMode> availableModes()
{
    std::vector<ServerMode> modes;
    for (const char *model : {"epoll", "poller", "blocking"})
        for (const char *transfer : {"sendfile", "copy", "mmap"})
            modes.push_back({model, transfer});
    return modes;
}

std::string availableModeList()
{
    std::string list;
    for (const auto &mode : availableModes()) {
        if (!list.empty())
            list += ", ";
        list += mode.name();
    }
    return list;
}

bool parseServerMode(std::string_view text, ServerMode *mode, std::string *error)
{
    const auto plus = text.find('+');
    if (plus != std::string_view::npos) {
        const ServerMode parsed{std::string(text.substr(0, plus)),
                                std::string(text.substr(plus + 1))};
        for (const auto &known : availableModes()) {
            if (known.model == parsed.model && known.transfer == parsed.transfer) {
                *mode = parsed;
                return true;
            }
        }
    }
    if (error)
        *error = "unknown server mode '" + std::string(text) +
                 "' (available: " + availableModeList() + ")";
    return false;
}

} // namespace servelab::server
