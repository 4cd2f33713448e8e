// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <sys/types.h>
#include <vector>

namespace servelab::profile {

class PerfScriptReader;

// Records a server with Debian's `perf` (linux-perf) while a load runs: cpu-clock samples
// (on-CPU) and sched:sched_switch samples as a thread blocks plus the switch records that say
// when it ran again (off-CPU, lock waits), both with DWARF stacks, so that glibc's frames
// (built without frame pointers) unwind too. perf starts with its events off and turns them
// on and off through its control FIFO, each acknowledged: the recording is the load's, not
// perf's start-up.
class PerfRecorder
{
public:
    struct Options
    {
        int frequency = 499;   // cpu-clock samples a second per CPU (odd: not in step with timers)
        int stackBytes = 4096; // user stack copied per sample for DWARF unwinding
        bool offCpu = true;    // also sched_switch (needs tracefs)
    };

    PerfRecorder();
    ~PerfRecorder(); // stops perf if it still runs

    // Empty when perf can record here; otherwise what is missing and what to do.
    static QString unavailable();
    // Why the off-CPU events cannot be recorded (no sched tracepoints), empty when they can.
    static QString offCpuUnavailable();

    // Attaches to `pids` (their threads and those they start), writing `file`; true once
    // events are on. False with *why (perf's own words) and nothing left running.
    bool start(const std::vector<pid_t> &pids, const QString &file, const Options &options,
               QString *why);
    // Events off, perf ended, the file written. False with *why.
    bool stop(QString *why);
    bool isRecording() const { return m_perf != nullptr; }

    // Runs `perf script` over `file` into `reader`, line by line. False with *why.
    static bool read(const QString &file, PerfScriptReader *reader, QString *why);

private:
    bool command(const char *what, QString *why);
    void abandon();

    std::unique_ptr<QProcess> m_perf;
    QTemporaryDir m_fifos;
    os::UniqueFd m_control;
    os::UniqueFd m_ack;
};

} // namespace servelab::profile
