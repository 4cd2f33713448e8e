// SPDX-License-Identifier: Apache-2.0
#include "sharerun.h"

#include "agentprotocol.h"
#include "clocksync.h"

#include "client/clientsample.h"
#include "lab/results/pointresult.h"
#include "lab/results/resultbundle.h"
#include "lab/results/resultcolumns.h"
#include "lab/run/pointrun.h"

#include <QJsonArray>

#include <chrono>
#include <iterator>

namespace servelab::remote {

namespace {

// libstdc++'s steady_clock is CLOCK_MONOTONIC: the agents' time points are its own.
std::chrono::steady_clock::time_point at(qint64 monotonicNs)
{
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(monotonicNs));
}

} // namespace

ShareRun::ShareRun(std::unique_ptr<lab::PointClient> client,
                   std::unique_ptr<client::SampleQueue> samples, qint64 startAtNs,
                   qint64 deadlineNs, Notify notify)
    : m_client(std::move(client)), m_samples(std::move(samples)), m_startAtNs(startAtNs),
      m_deadlineNs(deadlineNs), m_notify(std::move(notify))
{
    m_runner = std::thread([this] { run(); });
    m_watcher = std::thread([this] { watch(); });
}

ShareRun::~ShareRun()
{
    cancel();
    m_runner.join();
    m_watcher.join();
}

void ShareRun::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    if (m_running)
        m_client->stop();
    m_changed.notify_all();
}

bool ShareRun::finished() const
{
    std::lock_guard lock(m_mutex);
    return m_done;
}

void ShareRun::run()
{
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait_until(lock, at(m_startAtNs), [this] { return m_cancelled; });
        m_running = !m_cancelled;
    }
    lab::PointResult point;
    const qint64 started = monotonicNanos();
    if (m_running)
        m_client->run(&point);
    const qint64 ended = monotonicNanos();
    {
        std::lock_guard lock(m_mutex); // the watcher drains for its ticks too
        std::vector<client::ClientSample> all = std::move(m_sent);
        for (client::ClientSample &s : m_samples->drain())
            all.push_back(std::move(s));
        point.clientSamples = client::sumByInterval(std::move(all));
    }
    bool cancelled = false;
    bool deadline = false;
    {
        std::lock_guard lock(m_mutex);
        m_running = false;
        m_done = true;
        cancelled = m_cancelled;
        deadline = m_stoppedAtDeadline;
        m_changed.notify_all();
    }
    m_notify(method::loadDone, {{QStringLiteral("point"), lab::ResultBundle::pointToJson(point)},
                                {QStringLiteral("started_ns"), started},
                                {QStringLiteral("ended_ns"), ended},
                                {QStringLiteral("concurrency"), point.load.concurrency},
                                {QStringLiteral("cancelled"), cancelled},
                                {QStringLiteral("stopped_at_deadline"), deadline}});
}

void ShareRun::watch()
{
    std::unique_lock lock(m_mutex);
    qint64 next = monotonicNanos() + qint64(tickMs) * 1'000'000;
    while (!m_done) {
        const qint64 until = std::min(next, m_deadlineNs);
        m_changed.wait_until(lock, at(until), [&] { return m_done; });
        if (m_done)
            break;
        const qint64 now = monotonicNanos();
        if (now >= m_deadlineNs && !m_stoppedAtDeadline) {
            m_stoppedAtDeadline = true;
            m_cancelled = true;
            if (m_running)
                m_client->stop();
            m_changed.notify_all();
            m_deadlineNs = std::numeric_limits<qint64>::max(); // once
        }
        if (now >= next) {
            next = now + qint64(tickMs) * 1'000'000;
            // The samples since the last tick, without their histograms: what a live view
            // draws. load_done still carries every sample whole.
            std::vector<client::ClientSample> fresh = m_samples->drain();
            QJsonArray samples;
            for (client::ClientSample s : client::sumByInterval(fresh)) {
                s.latency = {};
                QJsonObject o;
                lab::ResultColumns::toJson(lab::ResultColumns::clientSample(), s, &o);
                samples.append(o);
            }
            m_sent.insert(m_sent.end(), std::make_move_iterator(fresh.begin()),
                          std::make_move_iterator(fresh.end()));
            lock.unlock();
            m_notify(method::tick,
                     {{QStringLiteral("now_ns"), now}, {QStringLiteral("samples"), samples}});
            lock.lock();
        }
    }
}

} // namespace servelab::remote
