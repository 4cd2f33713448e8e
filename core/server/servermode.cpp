// SPDX-License-Identifier: Apache-2.0
#include "servermode.h"

#include "uringsupport.h"

#include <array>

namespace servelab::server {

namespace {

constexpr std::array models{"epoll", "poller", "blocking", "multiplex", "uring", "qt"};
constexpr std::array transfers{"sendfile", "copy", "mmap"};

template<std::size_t N>
std::string joined(const std::array<const char *, N> &names)
{
    std::string list;
    for (const char *name : names)
        list += (list.empty() ? "" : ", ") + std::string(name);
    return list;
}

template<std::size_t N>
bool contains(const std::array<const char *, N> &names, const std::string &name)
{
    for (const char *known : names)
        if (name == known)
            return true;
    return false;
}

} // namespace

std::string whyUnavailable(const ServerMode &mode)
{
    if (!contains(models, mode.model))
        return "there is no event model '" + mode.model + "' (models: " + joined(models) + ")";
    if (!contains(transfers, mode.transfer))
        return "there is no body transfer '" + mode.transfer +
               "' (transfers: " + joined(transfers) + ")";
    if (mode.model == "qt" && mode.transfer != "copy")
        return "the qt model writes through QTcpSocket, which has no " + mode.transfer +
               ": use qt+copy";
    std::string reason;
    if (mode.model == "uring" && !uringAvailable(&reason))
        return "the uring model cannot run here: " + reason;
    return {};
}

std::vector<ServerMode> availableModes()
{
    std::vector<ServerMode> modes;
    for (const char *model : models)
        for (const char *transfer : transfers)
            if (ServerMode mode{model, transfer}; whyUnavailable(mode).empty())
                modes.push_back(mode);
    return modes;
}

std::vector<std::pair<ServerMode, std::string>> unavailableModes()
{
    std::vector<std::pair<ServerMode, std::string>> modes;
    for (const char *model : models)
        for (const char *transfer : transfers)
            if (ServerMode mode{model, transfer};
                !whyUnavailable(mode).empty() && !(mode.model == "qt" && mode.transfer != "copy"))
                modes.emplace_back(mode, whyUnavailable(mode));
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
    if (plus == std::string_view::npos) {
        if (error)
            *error =
                "'" + std::string(text) +
                "' is not a server mode: write model+transfer (available: " + availableModeList() +
                ")";
        return false;
    }
    const ServerMode parsed{std::string(text.substr(0, plus)), std::string(text.substr(plus + 1))};
    if (const std::string reason = whyUnavailable(parsed); !reason.empty()) {
        if (error)
            *error = "server mode '" + std::string(text) + "': " + reason;
        return false;
    }
    *mode = parsed;
    return true;
}

} // namespace servelab::server
