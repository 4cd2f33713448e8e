// SPDX-License-Identifier: Apache-2.0
#include "servermode.h"

#include "eventmodel.h"

#include <array>

namespace servelab::server {

namespace {

constexpr std::array transfers{"sendfile", "copy", "mmap"};

std::string modelNames()
{
    std::string list;
    for (const auto &m : eventModels())
        list += (list.empty() ? "" : ", ") + std::string(m.name);
    return list;
}

std::string transferNames()
{
    std::string list;
    for (const char *name : transfers)
        list += (list.empty() ? "" : ", ") + std::string(name);
    return list;
}

bool isTransfer(const std::string &name)
{
    for (const char *known : transfers)
        if (name == known)
            return true;
    return false;
}

} // namespace

std::string whyUnavailable(const ServerMode &mode)
{
    const EventModel *model = findEventModel(mode.model);
    if (!model)
        return "there is no event model '" + mode.model + "' (models: " + modelNames() + ")";
    if (!isTransfer(mode.transfer))
        return "there is no body transfer '" + mode.transfer + "' (transfers: " + transferNames() +
               ")";
    if (!model->takes(mode.transfer))
        return "the " + mode.model + " model " + model->onlyBecause + " " + mode.transfer +
               ": use " + mode.model + "+" + model->onlyTransfer;
    if (model->whyNotHere)
        if (std::string reason = model->whyNotHere(); !reason.empty())
            return reason;
    if (!model->create)
        return "the " + mode.model + " model is not built into this ServeLab";
    return {};
}

std::vector<ServerMode> availableModes()
{
    std::vector<ServerMode> modes;
    for (const auto &model : eventModels())
        for (const char *transfer : transfers)
            if (ServerMode mode{model.name, transfer}; whyUnavailable(mode).empty())
                modes.push_back(mode);
    return modes;
}

std::vector<std::pair<ServerMode, std::string>> unavailableModes()
{
    std::vector<std::pair<ServerMode, std::string>> modes;
    for (const auto &model : eventModels())
        for (const char *transfer : transfers)
            if (ServerMode mode{model.name, transfer};
                model.takes(transfer) && !whyUnavailable(mode).empty())
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
