#include "sweepcontroller.h"

#include "lab/sweeprunner.h"

#include <QThread>

namespace servelab::ui {

SweepController::SweepController(QObject *parent) : QObject(parent) {}

SweepController::~SweepController()
{
    cancel();
    cleanUp();
}

void SweepController::start(const lab::SweepSpec &spec)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_thread)
        return;
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("sweep"));
    m_runner = new lab::SweepRunner(spec);
    m_runner->moveToThread(m_thread);
    connect(m_thread, &QThread::started, m_runner, &lab::SweepRunner::run);
    connect(m_runner, &lab::SweepRunner::pointStarted, this, &SweepController::pointStarted);
    connect(m_runner, &lab::SweepRunner::pointFinished, this, &SweepController::pointFinished);
    connect(m_runner, &lab::SweepRunner::finished, this, [this](bool cancelled) {
        cleanUp();
        Q_EMIT finished(cancelled);
    });
    connect(m_runner, &lab::SweepRunner::failed, this, [this](const QString &reason) {
        cleanUp();
        Q_EMIT failed(reason);
    });
    m_thread->start();
}

void SweepController::cancel()
{
    if (m_runner)
        m_runner->cancel();
}

void SweepController::cleanUp()
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
