// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/loadmodel.h"
#include "specfield.h"

#include <QString>

#include <span>
#include <vector>

namespace servelab::lab {

struct ClientKey;
struct SweepSpec;

// A client model as experiments take it, one row each (the four of design.md): the spec's
// client keys it takes beyond "model", "concurrency" and "timeout_ms", the shell command that
// makes the same load, and what `run --smoke` makes of it. The spec reader and toJson,
// SweepSpec::validate, the wizard's client page and `run --smoke` read these rows; none of
// them names a model. How a point of it runs is its row of PointRun (lab/run/), beside.
struct ExperimentModel
{
    client::LoadModel model;
    const char *title;              // the wizard's choice
    std::vector<const char *> keys; // ClientKey rows it takes, in the order the window shows them
    bool countsRequests;            // ab's rules (c <= n); else wrk's (threads <= connections)
    // The same load from a shell: "ab -n 200 -c 1 -s 30 URL".
    QString (*command)(const SweepSpec &);
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
