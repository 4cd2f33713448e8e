// SPDX-License-Identifier: Apache-2.0
#include "loadmodel.h"

namespace servelab::client {

namespace {

constexpr LoadModelRow models[] = {
    {LoadModel::Closed, "closed"},
    {LoadModel::Duration, "duration"},
    {LoadModel::Rate, "rate"},
    {LoadModel::Ramp, "ramp"},
};

} // namespace

std::span<const LoadModelRow> loadModels()
{
    return models;
}

const LoadModelRow &loadModelRow(LoadModel model)
{
    for (const auto &row : models)
        if (row.model == model)
            return row;
    return models[0]; // unreachable: every enumerator has its row
}

std::optional<LoadModel> parseLoadModel(std::string_view name)
{
    for (const auto &row : models)
        if (name == row.name)
            return row.model;
    return std::nullopt;
}

} // namespace servelab::client
