// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <functional>
#include <thread>

namespace servelab::cli {

// Ctrl-C (SIGINT) and SIGTERM as a request to stop cleanly: while it lives, the first such
// signal calls `onStop` from a thread of its own (the handler only writes to a pipe, which is
// all a signal handler may do); a second one ends the process as usual. The previous handlers
// come back when it is destroyed.
class InterruptWatch
{
public:
    explicit InterruptWatch(std::function<void()> onStop);
    ~InterruptWatch();
    InterruptWatch(const InterruptWatch &) = delete;
    InterruptWatch &operator=(const InterruptWatch &) = delete;

    bool interrupted() const { return m_interrupted; }

private:
    std::function<void()> m_onStop;
    // The pipe's ends; the signal handler writes to a plain copy of the write end's number.
    os::UniqueFd m_readEnd;
    os::UniqueFd m_writeEnd;
    std::thread m_thread;
    bool m_interrupted = false; // written by m_thread, read after it is joined
};

} // namespace servelab::cli
