// SPDX-License-Identifier: Apache-2.0
#include "session.h"

#include "experimentcontroller.h"

#include "lab/results/humantext.h"
#include "lab/results/machinefacts.h"
#include "lab/results/resultbundle.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "lab/results/runstatus.h"
#include "lab/results/setupdifferences.h"
#include "lab/spec/specsource.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>

namespace servelab::ui {

Session::Session(QObject *parent)
    : QObject(parent), m_database(lab::ResultStore::defaultPath()),
      m_run(new ExperimentController(this))
{
    using Controller = ExperimentController;
    connect(m_run, &Controller::started, this, [this](qint64 experiment, int total) {
        m_runExperiment = experiment;
        Q_EMIT runStarted(experiment, total);
    });
    connect(m_run, &Controller::pointStarted, this, &Session::pointStarted);
    connect(m_run, &Controller::pointFinished, this, &Session::addRunPoint);
    connect(m_run, &Controller::progress, this, &Session::runProgress);
    connect(m_run, &Controller::finished, this, &Session::runFinished);
}

Session::~Session() = default;

void Session::setDatabase(const QString &path)
{
    m_database = path;
    m_tookRead = false;
    Q_EMIT databaseChanged(path);
}

QList<qint64> Session::overlayIds() const
{
    QList<qint64> ids;
    for (const auto &o : m_overlays)
        ids << o.id;
    return ids;
}

const lab::RunComparison &Session::comparison(qint64 id) const
{
    static const lab::RunComparison none;
    for (const auto &o : m_overlays)
        if (id == 0 || o.id == id)
            return o.comparison;
    return none;
}

lab::PointResult Session::slim(lab::PointResult point)
{
    for (auto &sample : point.clientSamples)
        sample.latency = client::LatencyHistogram();
    for (auto &lane : point.agents)
        for (auto &sample : lane.samples)
            sample.latency = client::LatencyHistogram();
    return point;
}

QList<lab::PointResult> Session::storedPoints(qint64 id, QString *error) const
{
    lab::ResultStore store;
    QList<lab::PointResult> points;
    if (store.open(m_database, error))
        points = store.points(id, error);
    if (points.isEmpty() && error->isEmpty())
        *error = tr("experiment %1 has no points in %2").arg(id).arg(m_database);
    for (auto &p : points)
        p = slim(p);
    return points;
}

void Session::show(QList<lab::PointResult> points, const QString &title)
{
    m_points = std::move(points);
    m_title = title;
    Q_EMIT shownChanged();
}

bool Session::openFile(const QString &path, QString *error)
{
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        return openResults(path, error);
    // A bundle holds points; a spec does not.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    return root.contains(QStringLiteral("points")) ? openResults(path, error)
                                                   : loadSpec(path, error);
}

bool Session::openResults(const QString &path, QString *error)
{
    if (!idle(error))
        return false;
    if (path.endsWith(QStringLiteral(".json"))) {
        lab::ResultBundle bundle;
        if (!lab::ResultBundle::readFile(path, &bundle, error))
            return false;
        m_overlays.clear();
        m_name = bundle.name;
        m_spec = bundle.spec;
        m_machine = bundle.machine;
        for (auto &p : bundle.points)
            p = slim(p);
        remember(path);
        show(std::move(bundle.points), bundle.name);
        return true;
    }
    if (!QFile::exists(path)) {
        *error = tr("%1 does not exist: give a results database or a bundle.json").arg(path);
        return false;
    }
    lab::ResultStore store;
    if (!store.open(path, error))
        return false;
    setDatabase(path);
    remember(path);
    const auto experiments = store.experiments(error);
    if (experiments.isEmpty()) {
        if (error->isEmpty())
            *error = tr("%1 holds no experiments yet").arg(path);
        return false;
    }
    return showExperiment(experiments.last().id, error);
}

bool Session::loadSpec(const QString &fileOrPreset, QString *error)
{
    lab::SpecSource source;
    if (!lab::SpecSource::read(fileOrPreset, &source, error))
        return false;
    if (!source.runs()) {
        // Shown in the editor with its problems, so that it can be fixed there.
        Q_EMIT specRejected(QString::fromUtf8(source.text));
        *error = tr("%1 cannot run: %2").arg(fileOrPreset, source.problems.join(u'\n'));
        return false;
    }
    if (!source.isPreset())
        remember(source.path);
    Q_EMIT specLoaded(source.spec);
    return true;
}

bool Session::loadPreset(const QString &name, QString *error)
{
    if (!lab::SpecSource::presetExists(name)) {
        *error = tr("there is no preset '%1'").arg(name);
        return false;
    }
    return loadSpec(name, error);
}

bool Session::showExperiment(qint64 id, QString *error)
{
    return showExperiments({id}, error);
}

bool Session::showExperiments(const QList<qint64> &ids, QString *error)
{
    if (!idle(error))
        return false;
    if (ids.isEmpty())
        return true;
    // Everything read before anything changes: a run that cannot be read changes nothing.
    QList<QList<lab::PointResult>> runs;
    for (qint64 id : ids) {
        runs << storedPoints(id, error);
        if (runs.last().isEmpty())
            return false;
    }
    lab::ResultStore store;
    QList<lab::ResultStore::Experiment> experiments;
    if (store.open(m_database, error))
        experiments = store.experiments(error);
    const auto e = std::find_if(experiments.cbegin(), experiments.cend(),
                                [&](const auto &x) { return x.id == ids.first(); });
    const bool known = e != experiments.cend();
    m_name = known ? e->name : QString();
    m_spec = known ? e->spec : QByteArray();
    m_machine = known ? e->machine : QJsonObject();
    m_points = runs.first();
    m_overlays.clear();
    for (qsizetype i = 1; i < ids.size(); ++i)
        m_overlays << overlayOf(ids[i], runs[i]);
    show(m_points, tr("experiment %1 (%2, %3)")
                       .arg(ids.first())
                       .arg(m_name, known ? lab::runStatusText(e->status) : QString()));
    // What Run would start is what is shown: its spec, as it was run.
    lab::ExperimentSpec spec;
    if (QStringList problems; known && lab::ExperimentSpec::parse(m_spec, m_name, &spec, &problems))
        Q_EMIT specLoaded(spec);
    return true;
}

Session::Overlay Session::overlayOf(qint64 id, const QList<lab::PointResult> &points) const
{
    Overlay overlay{id, {}, points, lab::RunComparison::of(m_points, points), {}, false};
    lab::ResultStore store;
    QString why;
    QByteArray spec;
    if (store.open(m_database, &why))
        for (const auto &e : store.experiments(&why))
            if (e.id == id) {
                overlay.name = e.name;
                spec = e.spec;
            }
    overlay.setup = lab::SetupDifferences::of(spec, m_spec);
    overlay.setupDiffers = lab::SetupDifferences::kept(spec) &&
                           lab::SetupDifferences::kept(m_spec) && !overlay.setup.isEmpty();
    return overlay;
}

bool Session::overlayExperiment(qint64 id, QString *error)
{
    if (m_points.isEmpty()) {
        *error = tr("show or run an experiment first, then overlay another on it");
        return false;
    }
    const QList<lab::PointResult> points = storedPoints(id, error);
    if (points.isEmpty())
        return false;
    const Overlay overlay = overlayOf(id, points);
    const auto it = std::find_if(m_overlays.begin(), m_overlays.end(),
                                 [id](const Overlay &o) { return o.id == id; });
    if (it != m_overlays.end())
        *it = overlay;
    else
        m_overlays << overlay;
    Q_EMIT shownChanged();
    return true;
}

void Session::clearOverlays()
{
    m_overlays.clear();
    Q_EMIT shownChanged();
}

bool Session::idle(QString *error) const
{
    if (!isRunning())
        return true;
    *error = tr("a run is going on and is what is shown: open or show others once it ends");
    return false;
}

bool Session::startRun(const lab::ExperimentSpec &spec)
{
    if (isRunning())
        return false;
    m_running = true;
    m_runDatabase = m_database;
    m_runExperiment = 0;
    m_runClock.start();
    beginRun(spec);
    Q_EMIT runningChanged(true);
    m_run->start(spec, m_runDatabase);
    return true;
}

void Session::pauseRun()
{
    if (!isRunning() || isPaused())
        return;
    m_run->pause();
    Q_EMIT pausedChanged(true);
}

void Session::resumeRun()
{
    if (!isPaused())
        return;
    m_run->resume();
    Q_EMIT pausedChanged(false);
}

void Session::cancelRun()
{
    if (!isRunning())
        return;
    m_run->cancel();
    Q_EMIT cancelling();
}

bool Session::isPaused() const
{
    return m_run->isPaused();
}

bool Session::tuneRun(const QStringList &assignments, QString *error)
{
    return m_run->tune(assignments, error);
}

QStringList Session::liveOptions() const
{
    return m_run->liveOptions();
}

lab::LiveFeed::Update Session::takeLive()
{
    return m_run->takeLive();
}

qint64 Session::lastTook(const lab::ExperimentSpec &spec) const
{
    if (!m_tookRead) {
        m_tookRead = true;
        m_tookBySetup.clear();
        lab::ResultStore store;
        QString why;
        if (QFile::exists(m_database) && store.open(m_database, &why)) {
            auto experiments = store.experiments(&why);
            std::reverse(experiments.begin(), experiments.end()); // newest first
            for (const auto &e : experiments)
                if (e.status == lab::RunStatus::Done && e.started.isValid() && e.finished.isValid())
                    m_tookBySetup.append(
                        {lab::SetupDifferences::canonical(e.spec), e.started.msecsTo(e.finished)});
        }
    }
    const QByteArray setup = lab::SetupDifferences::canonical(spec.toJson());
    for (const auto &[kept, ms] : m_tookBySetup)
        if (!setup.isEmpty() && kept == setup)
            return ms;
    return -1;
}

void Session::runFinished(lab::RunStatus status, const QString &reason)
{
    m_running = false;
    m_tookRead = false; // this run is one of them now
    QString summary;
    if (status == lab::RunStatus::Done)
        summary = tr("Done: %1 in %2.")
                      .arg(lab::countText(m_points.size(), tr("point"), tr("points")))
                      .arg(lab::durationText(m_runClock.elapsed()));
    else if (status == lab::RunStatus::Cancelled)
        summary = tr("Cancelled after %1; they are kept.")
                      .arg(lab::countText(m_points.size(), tr("point"), tr("points")));
    else
        summary = tr("Failed: %1").arg(reason);
    const bool ok =
        status == lab::RunStatus::Done &&
        std::any_of(m_points.cbegin(), m_points.cend(), [](const auto &p) { return !p.dnf; });
    Q_EMIT runningChanged(false);
    Q_EMIT runEnded(ok, summary, reason);
}

void Session::beginRun(const lab::ExperimentSpec &spec)
{
    QList<quint64> sizes;
    for (const auto &t : spec.expanded())
        for (quint64 size : t.sizes)
            if (!sizes.contains(size))
                sizes << size;
    std::sort(sizes.begin(), sizes.end());
    m_points.clear();
    m_overlays.clear();
    m_name = spec.name;
    m_title = spec.name;
    m_spec = spec.toJson();
    m_machine = lab::machineFacts();
    Q_EMIT runBegan(sizes, spec);
}

void Session::addRunPoint(const lab::PointResult &point)
{
    m_points << slim(point);
    Q_EMIT pointAdded(m_points.last());
}

bool Session::exportCsv(const QString &path, QString *error) const
{
    return lab::writeTextFile(path, lab::formatCsv(m_points), error);
}

bool Session::exportBundle(const QString &path, QString *error) const
{
    if (m_points.isEmpty()) {
        *error = tr("nothing to export yet: run an experiment or open one");
        return false;
    }
    const lab::ResultBundle bundle{m_name, m_spec, m_machine, m_points};
    return lab::writeTextFile(path, QString::fromUtf8(bundle.toJson()), error);
}

QString Session::tableTsv() const
{
    return lab::formatSeedTsv(m_points);
}

void Session::remember(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    while (m_recent.size() > 8)
        m_recent.removeLast();
}

} // namespace servelab::ui
