// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/loadmodel.h"
#include "lab/spec/specfield.h"

#include <QString>

#include <memory>
#include <span>
#include <vector>

namespace servelab::client {
struct ClientOptions;
}

namespace servelab::lab {

struct ClientKey;
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

// A client model as experiments run it, one row each (the four of design.md): the spec's
// client keys it takes beyond "model", "concurrency" and "timeout_ms", how a point of it is
// run and when it did not finish, the shell command that makes the same load, and what
// `run --smoke` makes of it. The spec reader and toJson, SweepSpec::validate, SweepRunner,
// the wizard's client page and `run --smoke` read these rows; none of them names a model.
struct ExperimentModel
{
    client::LoadModel model;
    const char *title;              // the wizard's choice
    std::vector<const char *> keys; // ClientKey rows it takes, in the order the window shows them
    bool countsRequests;            // ab's rules (c <= n); else wrk's (threads <= connections)
    // The same load from a shell: "ab -n 200 -c 1 -s 30 URL".
    QString (*command)(const SweepSpec &);
    std::unique_ptr<PointClient> (*client)(const SweepSpec &, const client::ClientOptions &);
    // Why a point that ran did not finish (empty: it did). Every model's point is also DNF
    // when the client could not start or every request failed; SweepRunner says those.
    QString (*unfinished)(const SweepSpec &, const PointResult &, bool cancelled);
    // `run --smoke`: the same load in about a second.
    void (*shrink)(SweepSpec *);

    bool takes(const ClientKey &key) const;
    // The first number out of its range, rule broken or text refused, naming fields as
    // `naming` does; empty when the client can run. `fewest`: the lowest of a concurrency list.
    QString problem(const SweepSpec &spec, int fewest, FieldNaming naming) const;
    // "\"model\": \"duration\" or \"rate\"": the models that take `key`.
    static QString takenBy(const ClientKey &key);

    static std::span<const ExperimentModel> all();
    static const ExperimentModel &of(client::LoadModel model);
};

} // namespace servelab::lab
