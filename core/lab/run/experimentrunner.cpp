// SPDX-License-Identifier: Apache-2.0
#include "experimentrunner.h"

#include "etaestimator.h"
#include "lab/results/machinefacts.h"
#include "lab/results/resultstore.h"
#include "lab/spec/experimentmodel.h"
#include "lab/spec/servertemplate.h"
#include "lab/targets/targetlabels.h"
#include "pointprofiler.h"
#include "remotehosts.h"
#include "runcontrol.h"
#include "sweeprunner.h"

#include <QElapsedTimer>
#include <QScopeGuard>

namespace servelab::lab {

ExperimentRunner::ExperimentRunner(const ExperimentSpec &spec, QObject *parent)
    : QObject(parent), m_spec(spec), m_targets(spec.expanded()), m_labels(targetLabels(m_targets)),
      m_control(std::make_shared<RunControl>())
{
    qRegisterMetaType<servelab::lab::PointResult>();
}

ExperimentRunner::~ExperimentRunner() = default;

void ExperimentRunner::pause()
{
    m_control->pause();
}

void ExperimentRunner::resume()
{
    m_control->resume();
}

void ExperimentRunner::cancel()
{
    m_control->cancel();
}

bool ExperimentRunner::isPaused() const
{
    return m_control->isPaused();
}

int ExperimentRunner::totalPoints() const
{
    int perRepetition = 0;
    for (const auto &t : m_targets)
        perRepetition += int(t.sizes.size());
    return perRepetition * m_spec.repetitions;
}

// The points still to run once (repetition, target, size index) is done, for the estimate.
QList<std::pair<int, quint64>> ExperimentRunner::pointsAfter(int repetition, int target,
                                                             int sizeIndex) const
{
    QList<std::pair<int, quint64>> rest;
    for (int r = repetition; r < m_spec.repetitions; ++r)
        for (int t = r == repetition ? target : 0; t < m_targets.size(); ++t)
            for (int s = r == repetition && t == target ? sizeIndex + 1 : 0;
                 s < m_targets[t].sizes.size(); ++s)
                rest.append({t, m_targets[t].sizes[s]});
    return rest;
}

void ExperimentRunner::run()
{
    // The hosts' agents are shut down as run() ends, whichever way, in the thread that ran
    // them, not wherever this runner is deleted (the window's GUI thread: each agent may take
    // seconds to end).
    const auto release = qScopeGuard([this] { m_hosts.reset(); });
    m_results.clear();
    m_done = 0;
    m_machine = machineFacts();
    // The version of every real server the run starts: a difference there explains numbers.
    QJsonObject versions;
    for (const SweepSpec &target : m_targets)
        if (target.kind() == TargetKind::Template && !versions.contains(target.target))
            if (const QString version = ServerTemplate::versionOf(target.target);
                !version.isEmpty())
                versions.insert(target.target, version);
    if (!versions.isEmpty())
        m_machine.insert(QStringLiteral("server_versions"), versions);
    m_status = RunStatus::Failed;
    QString error;
    if (m_hosts) {
        if (!m_hosts->connect(&error))
            return m_reason = error, Q_EMIT finished(m_status, error);
        m_machine.insert(QStringLiteral("hosts"), m_hosts->facts());
    }
    ResultStore store;
    if (!m_database.isEmpty()) {
        if (!store.open(m_database, &error) ||
            !(m_experiment =
                  store.beginExperiment(m_spec.name, m_spec.toJson(), &error, m_machine)))
            return m_reason = error, Q_EMIT finished(m_status, error);
        m_databasePath = store.path();
    }
    const int total = totalPoints();
    Q_EMIT started(m_experiment, total);

    // The time left: a closed point's n requests, the bandwidth such points reached here before,
    // and each target's where it ran before.
    const SweepSpec &first = m_targets.value(0);
    const bool counts = ExperimentModel::of(first.model).countsRequests;
    const QString model = QString::fromLatin1(client::loadModelName(first.model));
    constexpr quint64 largeSize = 1 << 20;
    EtaEstimator eta(counts ? first.requests + first.warmupRequests : 0,
                     store.isOpen() ? store.recentBytesPerSecond(model, largeSize) : 0);
    for (int t = 0; store.isOpen() && t < m_labels.size(); ++t)
        eta.setPrior(t, store.recentBytesPerSecond(model, largeSize, m_labels[t]));
    QString storeError;
    const auto keep = [&](PointResult point, int target, int sizeIndex, qint64 ms) {
        point.index = m_done++;
        if (m_experiment && storeError.isEmpty() &&
            !store.addPoint(m_experiment, point, &storeError))
            m_control->cancel(); // a point that cannot be kept stops the experiment
        eta.record(target, point.sizeBytes, ms);
        if (m_keepResults)
            m_results.append(point);
        Q_EMIT pointFinished(point);
        Q_EMIT progress(m_done, total,
                        eta.remainingMs(pointsAfter(point.repetition, target, sizeIndex)));
    };
    for (int repetition = 0; repetition < m_spec.repetitions && m_control->proceed();
         ++repetition) {
        for (int t = 0; t < m_targets.size() && m_control->proceed(); ++t) {
            SweepRunner runner(m_targets[t]);
            runner.setControl(m_control);
            runner.setHosts(m_hosts);
            // Profiles of the last repetition: the server is as warm as it gets.
            if (m_profileFolder.isEmpty())
                m_profileFolder = PointProfiler::defaultFolder();
            runner.setProfiling(repetition == m_spec.repetitions - 1, m_profileFolder, m_labels[t]);
            if (m_feed)
                runner.setLiveFeed(m_feed, m_labels[t], repetition);
            QString failure;
            QElapsedTimer clock;
            int sizeIndex = 0;
            // Direct: the sweep runs here, in this thread, whichever thread `this` lives in.
            connect(
                &runner, &SweepRunner::failed, this,
                [&](const QString &reason) { failure = reason; }, Qt::DirectConnection);
            connect(
                &runner, &SweepRunner::pointStarted, this,
                [&](int index, quint64 size) {
                    sizeIndex = index;
                    clock.start();
                    Q_EMIT pointStarted(m_done, m_labels[t], size, repetition);
                },
                Qt::DirectConnection);
            connect(
                &runner, &SweepRunner::pointFinished, this,
                [&](PointResult point) {
                    point.target = m_labels[t];
                    point.repetition = repetition;
                    keep(point, t, sizeIndex, clock.elapsed());
                },
                Qt::DirectConnection);
            clock.start();
            runner.run();
            // A target that cannot start is DNF at every size; the experiment goes on.
            if (!failure.isEmpty() && !m_control->isCancelled()) {
                const qint64 spent = clock.elapsed();
                for (int s = 0; s < m_targets[t].sizes.size(); ++s) {
                    PointResult dnf;
                    dnf.sizeBytes = m_targets[t].sizes[s];
                    dnf.target = m_labels[t];
                    dnf.protocol = m_targets[t].protocol();
                    dnf.repetition = repetition;
                    dnf.dnf = true;
                    dnf.reason = failure;
                    keep(dnf, t, s, s == 0 ? spent : 0);
                }
            }
        }
    }
    m_status = !storeError.isEmpty()      ? RunStatus::Failed
               : m_control->isCancelled() ? RunStatus::Cancelled
                                          : RunStatus::Done;
    if (m_experiment && !store.finishExperiment(m_experiment, m_status, &error) &&
        storeError.isEmpty())
        storeError = error, m_status = RunStatus::Failed;
    m_reason = storeError;
    Q_EMIT finished(m_status, storeError);
}

} // namespace servelab::lab
