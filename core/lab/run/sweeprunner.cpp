// SPDX-License-Identifier: Apache-2.0
#include "sweeprunner.h"

#include "client/closedclient.h"
#include "fdleakcheck.h"
#include "lab/results/bottleneck.h"
#include "lab/run/pointrun.h"
#include "lab/spec/docrootgenerator.h"
#include "lab/spec/sizelist.h"
#include "lab/targets/target.h"
#include "livefeed.h"
#include "metrics/clock.h"
#include "metrics/processsampler.h"
#include "pointoptions.h"
#include "pointprofiler.h"
#include "pointtuner.h"
#include "remotehosts.h"
#include "runcontrol.h"
#include "servercostmeter.h"

#include <QFileInfo>

#include <algorithm>
#include <thread>
#include <unistd.h>

namespace servelab::lab {

SweepRunner::SweepRunner(const SweepSpec &spec, QObject *parent)
    : QObject(parent), m_spec(spec), m_control(std::make_shared<RunControl>())
{
    qRegisterMetaType<servelab::lab::PointResult>();
}

SweepRunner::~SweepRunner() = default;

void SweepRunner::cancel()
{
    m_control->cancel();
}

void SweepRunner::pause()
{
    m_control->pause();
}

void SweepRunner::resume()
{
    m_control->resume();
}

void SweepRunner::setControl(std::shared_ptr<RunControl> control)
{
    m_control = std::move(control);
}

void SweepRunner::setLiveFeed(std::shared_ptr<LiveFeed> feed, const QString &label, int repetition)
{
    m_feed = std::move(feed);
    m_liveLabel = label;
    m_liveRepetition = repetition;
}

void SweepRunner::setProfiling(bool take, const QString &folder, const QString &label)
{
    m_profile = take;
    m_profileFolder = folder;
    m_profileLabel = label;
}

namespace {

// The client's samples to the point's queue (if any) and, as they come, to the live feed.
class LiveTee final : public client::SampleSink
{
public:
    LiveTee(client::SampleQueue *queue, LiveFeed *feed) : m_queue(queue), m_feed(feed) {}
    void publish(client::ClientSample sample) override
    {
        if (m_feed)
            m_feed->publishClient(sample);
        if (m_queue)
            m_queue->publish(std::move(sample));
    }

private:
    client::SampleQueue *m_queue;
    LiveFeed *m_feed;
};

} // namespace

bool SweepRunner::wasCancelled() const
{
    return m_control->isCancelled();
}

void SweepRunner::run()
{
    m_results.clear();
    if (const QString problem = m_spec.validate(); !problem.isEmpty())
        return Q_EMIT failed(problem);
    if (m_hosts) // the server host makes its own files
        return runTarget(m_hosts->target(m_spec));
    QString error;
    const QString root = m_spec.resolvedRoot();
    DocRootGenerator::Content content{};
    DocRootGenerator::parseContent(m_spec.content, &content);
    if (!root.isEmpty() && m_spec.generateRoot &&
        !DocRootGenerator::ensure(root, m_spec.sizes, &error, content, m_spec.filesPerSize))
        return Q_EMIT failed(error);
    if (!m_spec.generateRoot &&
        !DocRootGenerator::check(root, m_spec.sizes, &error, m_spec.filesPerSize))
        return Q_EMIT failed(error);

    runTarget(Target::create(m_spec, root));
}

void SweepRunner::runTarget(const std::unique_ptr<Target> &target)
{
    QString error;
    if (!target->start(&error))
        return Q_EMIT failed(error);
    // The server process: the child, this one for an in-process target, or the one named for
    // a url target (none if not named: then there is no server timeline and no leak check).
    // A real server is the tree under it (nginx's workers, Apache's prefork children), summed;
    // a built-in one is one process (`serve` never forks), so none is looked for.
    const qint64 pid = target->pid();
    const bool tree = m_spec.kind() != TargetKind::Builtin;
    metrics::ProcessSampler sampler;
    if (m_feed)
        sampler.setListener(
            [feed = m_feed](const metrics::ProcessSample &sample) { feed->publishServer(sample); });
    if (std::string why; pid && !sampler.start(pid_t(pid), &why, tree))
        return Q_EMIT failed(QStringLiteral("cannot watch the server: ") +
                             QString::fromStdString(why));

    // A server that forks its workers once it listens (nginx) is still setting them up when its
    // port first accepts: their epoll and eventfd would be the first point's "leaks". Its
    // descriptors settle first: the same count twice, 50 ms apart (at most 2 s).
    if (pid && tree) {
        std::size_t before = sampler.openFds().size();
        for (int wait = 0; wait < 40 && !m_control->isCancelled(); ++wait) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            const std::size_t now = sampler.openFds().size();
            if (now == before)
                break;
            before = now;
        }
    }
    m_control->setTarget(target.get(), [feed = m_feed](const TuneEvent &event) {
        if (feed)
            feed->publishTune(event);
    });
    for (int i = 0; i < m_spec.sizes.size() && m_control->proceed(); ++i) {
        Q_EMIT pointStarted(i, m_spec.sizes[i]);
        PointResult point = measure(i, m_spec.sizes[i], *target, pid ? &sampler : nullptr);
        m_results.append(point);
        Q_EMIT pointFinished(point);
    }
    m_control->setTarget(nullptr);
    m_control->takeTuned(); // made between points: in none of them
    sampler.stop();
    target->stop();
    Q_EMIT finished(m_control->isCancelled());
}

template<typename Client, typename Run>
auto SweepRunner::runStoppable(Client &client, Run run)
{
    m_control->setInterrupt([&client] { client.stop(); });
    auto result = run();
    m_control->setInterrupt(nullptr);
    return result;
}

// The spec's client model, as its row runs it; a cancel stops it meanwhile.
void SweepRunner::runModel(const client::ClientOptions &options, PointResult *point)
{
    const std::unique_ptr<PointClient> client = PointRun::of(m_spec.model).client(m_spec, options);
    m_control->setInterrupt([&client] { client->stop(); });
    client->run(point);
    m_control->setInterrupt(nullptr);
}

PointResult SweepRunner::measure(int index, quint64 size, Target &target,
                                 metrics::ProcessSampler *sampler)
{
    PointResult point;
    point.index = index;
    point.sizeBytes = size;
    point.target = m_spec.label();
    point.protocol = m_spec.protocol();
    point.model = m_spec.model;
    client::ClientOptions options =
        pointOptions(m_spec, size, QStringLiteral("127.0.0.1"), target.port());
    const QString untuned =
        m_hosts ? loadRemotely(size, target, &point) : loadHere(options, target, sampler, &point);
    // Cool-down, in steps so that a cancel is not kept waiting.
    for (int rested = 0; rested < m_spec.cooldownMs && !m_control->isCancelled(); rested += 50)
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::min(50, m_spec.cooldownMs - rested)));
    judge(&point, untuned);
    if (m_profile && m_spec.profile.wants(size) && !m_control->isCancelled()) {
        if (m_hosts) {
            point.profile.requested = true;
            point.profile.note = QStringLiteral("not profiled: the server runs on another host "
                                                "(perf records only this machine's processes)");
            return point;
        }
        if (m_profileFolder.isEmpty())
            m_profileFolder = PointProfiler::defaultFolder();
        client::ClientOptions quiet = options;
        quiet.samples = nullptr; // the pass is not the point's timeline
        const bool inProcess = m_spec.kind() == TargetKind::Builtin && !m_spec.runsIsolated();
        PointProfiler(m_spec.profile, m_profileFolder)
            .profile(m_profileLabel.isEmpty() ? point.target : m_profileLabel, pid_t(target.pid()),
                     m_spec.kind() != TargetKind::Builtin, inProcess, &point,
                     [&](PointResult *pass) { runModel(quiet, pass); });
    }
    return point;
}

// The point's load from this machine, the server watched here: its timeline, its counters,
// its CPU, the descriptors it kept. Returns what the spec's changes could not undo.
QString SweepRunner::loadHere(client::ClientOptions options, Target &target,
                              metrics::ProcessSampler *sampler, PointResult *out)
{
    PointResult &point = *out;
    client::SampleQueue samples;
    LiveTee tee(&samples, m_feed.get());
    options.samples = &tee;

    // Warm-up: the same requests, not counted (caches, JIT, connection pools settle first).
    if (m_spec.warmupRequests > 0 && !m_control->isCancelled()) {
        client::ClientOptions warm = options;
        warm.samples = nullptr;
        warm.requests = m_spec.warmupRequests;
        warm.concurrency = int(std::min<quint64>(quint64(options.concurrency), warm.requests));
        client::ClosedClient warmup(warm);
        runStoppable(warmup, [&] { return warmup.run(); });
    }
    // In this process (an in-process target) the server opens files under its document root
    // only: any other file open here is the lab's (its database, Qt's), not the server's.
    const bool inProcess = m_spec.kind() == TargetKind::Builtin && !m_spec.runsIsolated();
    const std::string root =
        QFileInfo(m_spec.resolvedRoot()).canonicalFilePath().toStdString() + '/';
    FdLeakCheck leaks([&] {
        std::vector<metrics::OpenFd> fds =
            sampler ? sampler->openFds() : std::vector<metrics::OpenFd>();
        if (inProcess)
            std::erase_if(fds, [&](const metrics::OpenFd &fd) {
                return fd.type == "file" && fd.target.compare(0, root.size(), root) != 0;
            });
        return fds;
    });
    leaks.baseline();
    const auto countersBefore = target.counters();
    if (sampler)
        sampler->drain(); // what came before this point is not its timeline
    point.startedAtMicros = metrics::monotonicMicros();
    if (m_feed)
        m_feed->beginPoint(m_liveLabel.isEmpty() ? point.target : m_liveLabel, point.sizeBytes,
                           m_liveRepetition, point.startedAtMicros);
    // The timeline starts and ends with the point, however short it is.
    if (sampler)
        sampler->sampleNow();
    // What the server spends on the load, from its start to its end.
    ServerCostMeter cost(pid_t(target.pid()), m_spec.kind() != TargetKind::Builtin, inProcess);
    cost.start();
    QString untuned;
    {
        // The spec's changes to the server, at their times, while the client runs.
        PointTuner tuner(target, m_spec.tune, point.startedAtMicros,
                         [feed = m_feed](const TuneEvent &event) {
                             if (feed)
                                 feed->publishTune(event);
                         });
        // Gone before the leak check: an in-process target shares this process's descriptors.
        runModel(options, &point);
        cost.finish(&point);
        point.tuneEvents = tuner.finish();
        untuned = tuner.restore();
    }
    // And the changes made from outside meanwhile (the window's Tune panel), in time order.
    for (TuneEvent &e : m_control->takeTuned())
        if (e.atMicros >= point.startedAtMicros)
            point.tuneEvents.push_back(std::move(e));
    std::stable_sort(
        point.tuneEvents.begin(), point.tuneEvents.end(),
        [](const TuneEvent &a, const TuneEvent &b) { return a.atMicros < b.atMicros; });
    if (sampler)
        sampler->sampleNow();
    const std::int64_t endedAt = metrics::monotonicMicros();
    if (m_feed)
        m_feed->endPoint();
    point.clientSamples = client::sumByInterval(samples.drain());
    // The server closes its side of the connections a moment after the client: give it 2 s.
    point.fdsLeftOpen = leaks.leftOpen(2000);
    if (sampler) {
        // The timeline is the point's: the leak check's wait after it is not (a server that
        // keeps a descriptor would otherwise add up to two idle seconds to it).
        point.serverSamples = sampler->drain();
        std::erase_if(point.serverSamples,
                      [endedAt](const metrics::ProcessSample &s) { return s.atMicros > endedAt; });
    }
    if (const auto after = target.counters(); countersBefore && after)
        point.countServer(*countersBefore, *after);
    return untuned;
}

// The point's load from the load hosts, split among them, the server watched on its own host
// (run --hosts): the same figures, each host's on this machine's clock. A remote server takes
// no changes (RemoteTarget): nothing to undo.
QString SweepRunner::loadRemotely(quint64 size, Target &target, PointResult *point)
{
    const auto stoppable = [this](auto run) {
        m_control->setInterrupt([hosts = m_hosts] { hosts->stopLoad(); });
        run();
        m_control->setInterrupt(nullptr);
    };
    if (m_spec.warmupRequests > 0 && !m_control->isCancelled()) {
        SweepSpec warm = m_spec;
        warm.model = client::LoadModel::Closed;
        warm.requests = m_spec.warmupRequests;
        warm.concurrency = int(std::min<quint64>(quint64(m_spec.concurrency), warm.requests));
        PointResult ignored;
        stoppable([&] { m_hosts->runLoad(warm, size, target.port(), &ignored); });
    }
    QString why;
    if (!m_hosts->watchServer(&why)) {
        point->dnf = true;
        point->reason = why;
        return {};
    }
    // The load hosts' samples reach the live view as their ticks come (every 250 ms), from T0,
    // once the load knows when that is; the server's timeline comes with the point's end.
    LiveTee live(nullptr, m_feed.get());
    bool began = false;
    const auto started = [&](std::int64_t t0Micros) {
        began = true;
        m_feed->beginPoint(m_liveLabel.isEmpty() ? point->target : m_liveLabel, size,
                           m_liveRepetition, t0Micros);
    };
    stoppable([&] {
        if (m_feed)
            m_hosts->runLoad(m_spec, size, target.port(), point, &live, started);
        else
            m_hosts->runLoad(m_spec, size, target.port(), point);
    });
    m_hosts->endWatch(point);
    if (m_feed && began) {
        for (const metrics::ProcessSample &s : point->serverSamples)
            m_feed->publishServer(s);
        m_feed->endPoint();
    }
    return {};
}

// The point's verdict: DNF and why, what failed, what limited it, the descriptors it kept.
void SweepRunner::judge(PointResult *out, const QString &untuned) const
{
    PointResult &point = *out;
    const auto &load = point.load;
    if (point.dnf) {
        // Already said why: a load host lost or late, the server host's watch refused.
    } else if (!load.fatalError.empty()) {
        point.dnf = true;
        point.reason = QString::fromStdString(load.fatalError);
    } else if (QString why =
                   PointRun::of(m_spec.model).unfinished(m_spec, point, m_control->isCancelled());
               !why.isEmpty()) {
        point.dnf = true;
        point.reason = why;
    } else if (load.completed == 0) {
        point.dnf = true;
        point.reason = QStringLiteral("no request completed");
    } else if (load.ok == 0) {
        point.dnf = true;
        point.reason = QStringLiteral("every request failed: %1")
                           .arg(QString::fromUtf8(client::errorKindText(load.dominantError())));
    } else if (load.failed() > 0) {
        point.reason = QStringLiteral("%1 of %2 requests failed, mostly: %3")
                           .arg(load.failed())
                           .arg(load.completed)
                           .arg(QString::fromUtf8(client::errorKindText(load.dominantError())));
    }
    if (!untuned.isEmpty())
        point.reason =
            point.reason.isEmpty() ? untuned : point.reason + QStringLiteral("; ") + untuned;
    const Bottleneck::Verdict verdict = Bottleneck::judge(point, m_cores);
    point.verdict = verdict.name();
    point.verdictWhy = verdict.why;
    if (!point.fdsLeftOpen.isEmpty()) {
        // Files an open-file cache keeps are what it is for; said so, still listed.
        const bool cached =
            m_spec.serverArguments.contains(QStringLiteral("--open-file-cache")) &&
            std::all_of(point.fdsLeftOpen.cbegin(), point.fdsLeftOpen.cend(),
                        [](const QString &fd) { return fd.contains(QStringLiteral(" file ")); });
        const QString leak =
            cached ? QStringLiteral("the open-file cache keeps %1 more files open (%2)")
                         .arg(point.fdsLeftOpen.size())
                         .arg(point.fdsLeftOpen.first())
                   : QStringLiteral("the server kept %1 more fds open afterwards (%2)")
                         .arg(point.fdsLeftOpen.size())
                         .arg(point.fdsLeftOpen.first());
        point.reason = point.reason.isEmpty() ? leak : point.reason + QStringLiteral("; ") + leak;
    }
}

} // namespace servelab::lab
