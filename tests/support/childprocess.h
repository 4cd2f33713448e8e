// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QProcess>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

// A QProcess the kernel stops when the test that started it dies, however it dies (a crash, a
// sanitizer's abort, ctest's timeout, kill -9): no `servelab-cli serve` is left running after
// a test (one was, after an early TSan run, until found an hour later).
// The signal follows the thread that forked: start children from the test's main thread.
class ChildProcess : public QProcess
{
public:
    explicit ChildProcess(QObject *parent = nullptr) : QProcess(parent)
    {
        const pid_t test = ::getpid();
        setChildProcessModifier([test] {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != test) // the test died before prctl: nobody would send it
                ::_exit(127);
        });
    }
};
