// SPDX-License-Identifier: Apache-2.0
#include "experimentcontroller.h"

#include "threadpriority.h"

#include "lab/run/experimentrunner.h"
#include "lab/run/runcontrol.h"
#include "remote/hostfleet.h"

#include <QThread>

namespace servelab::ui {

ExperimentController::ExperimentController(QObject *parent) : QObject(parent) {}

ExperimentController::~ExperimentController()
{
    cancel();
    cleanUp();
}

bool ExperimentController::isPaused() const
{
    return m_runner && m_runner->isPaused();
}

void ExperimentController::start(const lab::ExperimentSpec &spec, const QString &database)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_thread)
        return;
    // A run across machines (the spec's "hosts"): a hosts file that cannot be read, or a target
    // a server host cannot run, ends it before it starts, as the runner's own failures do.
    std::shared_ptr<remote::HostFleet> hosts;
    if (!spec.hosts.isEmpty()) {
        QString why;
        if (!(hosts = remote::HostFleet::open(spec.hosts, spec.expanded(), &why))) {
            QMetaObject::invokeMethod(
                this, [this, why] { Q_EMIT finished(lab::RunStatus::Failed, why); },
                Qt::QueuedConnection);
            return;
        }
    }
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("experiment"));
    m_runner = new lab::ExperimentRunner(spec);
    m_runner->setDatabase(database);
    m_runner->setKeepResults(false); // the window keeps its own (slim) copies
    m_feed = std::make_shared<lab::LiveFeed>();
    m_runner->setLiveFeed(m_feed);
    m_runner->setHosts(hosts); // reached in the worker thread: ssh may take seconds
    m_runner->moveToThread(m_thread);
    using Runner = lab::ExperimentRunner;
    // First, in the new thread: the priority the GUI thread handed down goes back to normal,
    // before the runner starts clients, samplers and servers that would inherit it.
    connect(m_thread, &QThread::started, m_thread, &restoreNormalPriority, Qt::DirectConnection);
    connect(m_thread, &QThread::started, m_runner, &Runner::run);
    connect(m_runner, &Runner::started, this, &ExperimentController::started);
    connect(m_runner, &Runner::pointStarted, this, &ExperimentController::pointStarted);
    connect(m_runner, &Runner::pointFinished, this, &ExperimentController::pointFinished);
    connect(m_runner, &Runner::progress, this, &ExperimentController::progress);
    connect(m_runner, &Runner::finished, this,
            [this](lab::RunStatus status, const QString &reason) {
                cleanUp();
                Q_EMIT finished(status, reason);
            });
    m_thread->start();
}

void ExperimentController::pause()
{
    if (m_runner)
        m_runner->pause();
}

void ExperimentController::resume()
{
    if (m_runner)
        m_runner->resume();
}

void ExperimentController::cancel()
{
    if (m_runner)
        m_runner->cancel();
}

bool ExperimentController::tune(const QStringList &assignments, QString *error)
{
    if (!m_runner) {
        *error = tr("no experiment is running");
        return false;
    }
    return m_runner->control().tune(assignments, error);
}

QStringList ExperimentController::liveOptions()
{
    return m_runner ? m_runner->control().liveOptions() : QStringList();
}

lab::LiveFeed::Update ExperimentController::takeLive()
{
    return m_feed ? m_feed->take() : lab::LiveFeed::Update{};
}

void ExperimentController::cleanUp()
{
    if (!m_thread)
        return;
    m_thread->quit();
    m_thread->wait();
    delete m_runner;
    delete m_thread;
    m_runner = nullptr;
    m_thread = nullptr;
}

} // namespace servelab::ui
