// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace servelab::client {
struct ClientSample;
class SampleQueue;
}

namespace servelab::lab {
class PointClient;
}

namespace servelab::remote {

// A load agent's share of a point, on its own thread: it waits for the start time on this
// host's CLOCK_MONOTONIC, runs the client, and hands its result (as the bundle writes a point)
// to `notify` as a load_done; meanwhile a tick every tickMs says it is alive and carries the
// samples taken since the last (the coordinator's live view of the point). It stops by
// itself at `deadlineNs`, whatever the coordinator does: a cut-off agent never keeps loading
// the server.
class ShareRun
{
public:
    using Notify = std::function<void(const char *method, const QJsonObject &params)>;

    // `samples` is where the client publishes its 100 ms samples (its options' sink).
    ShareRun(std::unique_ptr<lab::PointClient> client, std::unique_ptr<client::SampleQueue> samples,
             qint64 startAtNs, qint64 deadlineNs, Notify notify);
    ~ShareRun(); // cancels and joins
    ShareRun(const ShareRun &) = delete;
    ShareRun &operator=(const ShareRun &) = delete;

    void cancel();
    bool finished() const;

private:
    void run();
    void watch(); // ticks, and the deadline

    std::unique_ptr<lab::PointClient> m_client;
    std::unique_ptr<client::SampleQueue> m_samples;
    std::vector<client::ClientSample> m_sent; // drained for a tick, kept for load_done
    qint64 m_startAtNs;
    qint64 m_deadlineNs;
    Notify m_notify;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_cancelled = false;
    bool m_running = false;
    bool m_done = false;
    bool m_stoppedAtDeadline = false;
    std::thread m_runner;
    std::thread m_watcher;
};

} // namespace servelab::remote
