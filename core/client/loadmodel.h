// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace servelab::client {

// The client models (design.md): ab's closed loop, wrk's duration, wrk2's constant rate and
// faban's ramp. Their names appear only where text is read or written (the command line, a
// spec's "model", the window); everything else compares these values.
enum class LoadModel
{
    Closed,
    Duration,
    Rate,
    Ramp
};

struct LoadModelRow
{
    LoadModel model;
    const char *name; // what a spec of it takes: lab::ExperimentModel; how it runs: lab::PointRun
};

// In the order a `load` command line without --model tries them.
std::span<const LoadModelRow> loadModels();
const LoadModelRow &loadModelRow(LoadModel model);
inline const char *loadModelName(LoadModel model)
{
    return loadModelRow(model).name;
}
std::optional<LoadModel> parseLoadModel(std::string_view name);

} // namespace servelab::client
