// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/clientsample.h"
#include "lab/results/tuneevent.h"
#include "metrics/processprobe.h"

#include <QString>

#include <mutex>
#include <vector>

namespace servelab::lab {

// The point being measured, as it goes: the client threads' samples and the server process's,
// handed over as they are taken (writers: the client threads, the sampler thread) and taken by
// a window about ten times a second. One mutex, held for a push or a swap; what the window
// takes is what it has not taken yet.
class LiveFeed
{
public:
    // A client thread's 100 ms sample without its latency histogram: what a live chart draws.
    struct ClientTick
    {
        std::int64_t endMicros = 0; // since the point's client started
        std::int64_t intervalMicros = 0;
        std::uint64_t completed = 0;
        std::uint64_t bytesRead = 0;
    };
    struct Update
    {
        int serial = 0; // the point's: a new one starts with new samples
        QString target;
        quint64 sizeBytes = 0;
        int repetition = 0;
        std::int64_t startedAtMicros = 0;
        std::vector<ClientTick> client; // per thread, as published
        std::vector<metrics::ProcessSample> server;
        std::vector<TuneEvent> tune; // changes made to the server meanwhile
    };

    // A point starts: what comes next belongs to it (what was not taken of the last is dropped:
    // the finished point brings it whole).
    void beginPoint(const QString &target, quint64 sizeBytes, int repetition,
                    std::int64_t startedAtMicros);
    // The point is over: samples are dropped until the next begins.
    void endPoint();
    void publishClient(const client::ClientSample &sample);
    void publishServer(const metrics::ProcessSample &sample);
    void publishTune(const TuneEvent &event);
    Update take();

private:
    std::mutex m_mutex;
    Update m_pending;
    bool m_open = false;
};

} // namespace servelab::lab
