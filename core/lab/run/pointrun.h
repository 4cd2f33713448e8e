// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/loadmodel.h"

#include <QString>

#include <memory>
#include <span>

namespace servelab::client {
struct ClientOptions;
}

namespace servelab::lab {

struct PointResult;
struct SweepSpec;

// One point's load, whichever the model: run once on the experiment thread, stopped from any
// other (a cancel).
class PointClient
{
public:
    virtual ~PointClient() = default;
    // Fills point->load and the model's own figures (a rate point's uncorrected latency, a
    // ramp point's checks).
    virtual void run(PointResult *point) = 0;
    virtual void stop() = 0;
};

// How a point of each client model runs, one row per model (pointrun.cpp), beside its row of
// ExperimentModel (lab/spec/: what a spec of it may say): the client of core/client/ that makes
// the load, what of its result the point keeps, and when a point that ran did not finish.
// SweepRunner and the agents' AgentSession read these rows; neither names a model.
struct PointRun
{
    client::LoadModel model;
    std::unique_ptr<PointClient> (*client)(const SweepSpec &, const client::ClientOptions &);
    // Why a point that ran did not finish (empty: it did). Every model's point is also DNF
    // when the client could not start or every request failed; SweepRunner says those.
    QString (*unfinished)(const SweepSpec &, const PointResult &, bool cancelled);

    static std::span<const PointRun> all();
    static const PointRun &of(client::LoadModel model);
};

} // namespace servelab::lab
