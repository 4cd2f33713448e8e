#pragma once

#include "lab/pointresult.h"
#include "lab/sweepspec.h"

#include <QObject>
#include <QPointer>

class QThread;

namespace servelab::lab {
class SweepRunner;
}

namespace servelab::ui {

// Owns the worker thread of one sweep at a time and forwards what the runner reports to the
// GUI thread. cancel() and the destructor stop the run and join the thread.
class SweepController : public QObject
{
    Q_OBJECT
public:
    explicit SweepController(QObject *parent = nullptr);
    ~SweepController() override;

    bool isRunning() const { return m_thread != nullptr; }
    void start(const lab::SweepSpec &spec);
    void cancel();

Q_SIGNALS:
    void pointStarted(int index, quint64 sizeBytes);
    void pointFinished(const servelab::lab::PointResult &result);
    void finished(bool cancelled);
    void failed(const QString &reason);

private:
    void cleanUp();

    QThread *m_thread = nullptr;
    lab::SweepRunner *m_runner = nullptr;
};

} // namespace servelab::ui
