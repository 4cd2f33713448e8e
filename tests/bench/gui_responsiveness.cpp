// SPDX-License-Identifier: Apache-2.0
// Benchmark, not a test: runs an experiment in the real window (offscreen or under Xvfb) and
// measures how long the GUI thread goes without running a 10 ms heartbeat timer, and the
// process's resident memory, every 30 s and at the end. Never fails on a number.
//
//   bin/bench/gui_responsiveness SPEC.json [--db FILE] [--tab NAME] [--no-raise]
//
// As servelab does, the GUI thread asks to run ahead of the load (ui::raiseGuiThread());
// --no-raise leaves it at the load's priority.
//
// (tests/bench/gui_long_run.sh runs it with long-run-14x6.json: the 14 sizes ×
// 6 targets for about 10 minutes.)
#include "mainwindow.h"
#include "metrics/clock.h"
#include "resultstablemodel.h"
#include "threadpriority.h"
#include "windowparts.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

long residentKib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    return -1;
}

// Nanoseconds this thread has waited on a run queue for a core (schedstat's second field).
long long runQueueWaitNanos()
{
    QFile stat(QStringLiteral("/proc/thread-self/schedstat"));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    return stat.readAll().split(' ').value(1).toLongLong();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: gui_responsiveness SPEC.json [--db FILE] [--tab NAME]\n");
        return 2;
    }
    const bool raised =
        !args.contains(QStringLiteral("--no-raise")) && servelab::ui::raiseGuiThread();
    std::printf("GUI thread %s\n",
                raised ? "raised ahead of the load (nice -5)" : "at the load's priority");
    QTemporaryDir scratch;
    const int dbAt = int(args.indexOf(QStringLiteral("--db")));
    const int tabAt = int(args.indexOf(QStringLiteral("--tab")));
    servelab::ui::MainWindow window;
    window.session()->setDatabase(dbAt > 0 ? args.value(dbAt + 1)
                                           : scratch.filePath(QStringLiteral("results.db")));
    window.resize(1280, 800);
    window.show();
    QString error;
    if (!window.session()->loadSpec(args[1], &error)) {
        std::fprintf(stderr, "gui_responsiveness: %s\n", qPrintable(error));
        return 2;
    }
    if (tabAt > 0)
        window.showTab(args.value(tabAt + 1));

    QElapsedTimer clock;
    QElapsedTimer beat;
    qint64 worstWindow = 0;
    qint64 worst = 0;
    qint64 stallsOver50 = 0;
    // The GUI thread's own CPU time in a gap tells its work (the window drawing) from waiting
    // for a core (the servers and the client's threads share the machine's two).
    std::int64_t cpuAtBeat = servelab::metrics::threadCpuMicros();
    long long waitAtBeat = runQueueWaitNanos();
    qint64 worstBusy = 0;
    QTimer heartbeat;
    heartbeat.setInterval(10);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 gap = beat.restart();
        const std::int64_t cpuNow = servelab::metrics::threadCpuMicros();
        const qint64 busy = (cpuNow - cpuAtBeat) / 1000;
        cpuAtBeat = cpuNow;
        const long long waitNow = runQueueWaitNanos();
        const long long waited = (waitNow - waitAtBeat) / 1'000'000;
        waitAtBeat = waitNow;
        worstBusy = std::max(worstBusy, busy);
        worstWindow = std::max(worstWindow, gap);
        worst = std::max(worst, gap);
        if (gap > 50) { // when, and what the window was saying then
            ++stallsOver50;
            std::printf("  gap of %lld ms (%lld ms running, %lld ms waiting for a core) at %.1f s: "
                        "%s\n",
                        gap, busy, waited, double(clock.elapsed()) / 1000,
                        qPrintable(servelab::testing::runPanel(window)->status()));
        }
    });
    const long rssBefore = residentKib();
    long rssMost = rssBefore;
    QTimer report;
    report.setInterval(30'000);
    QObject::connect(&report, &QTimer::timeout, [&] {
        const long rss = residentKib();
        rssMost = std::max(rssMost, rss);
        std::printf("%6.0f s  points %4d  worst gap %4lld ms  RSS %6ld KiB\n",
                    double(clock.elapsed()) / 1000,
                    servelab::testing::resultsView(window)->model()->rowCount(), worstWindow, rss);
        std::fflush(stdout);
        worstWindow = 0;
    });
    bool ok = false;
    QObject::connect(&window, &servelab::ui::MainWindow::runFinished, [&](bool finished) {
        ok = finished;
        app.quit();
    });
    const std::int64_t cpuAtStart = servelab::metrics::threadCpuMicros();
    clock.start();
    beat.start();
    heartbeat.start();
    report.start();
    if (!window.startRun()) {
        std::fprintf(stderr, "gui_responsiveness: the run did not start: %s\n",
                     qPrintable(servelab::testing::runPanel(window)->status()));
        return 2;
    }
    app.exec();
    const long rssAfter = residentKib();
    const double guiCpu = double(servelab::metrics::threadCpuMicros() - cpuAtStart) / 1e6;
    std::printf("run %s after %.0f s, %d points: worst GUI-thread gap %lld ms (10 ms heartbeat), "
                "%lld gaps over 50 ms, most GUI-thread CPU between two beats %lld ms, "
                "GUI-thread CPU in all %.1f s; RSS %ld KiB before, %ld KiB most, %ld KiB after\n",
                ok ? "finished" : "failed", double(clock.elapsed()) / 1000,
                servelab::testing::resultsView(window)->model()->rowCount(), worst, stallsOver50,
                worstBusy, guiCpu, rssBefore, std::max(rssMost, rssAfter), rssAfter);
    return ok ? 0 : 1;
}
