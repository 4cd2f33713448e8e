// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <pthread.h>

namespace servelab::os {

// Names the calling thread for as long as this lives (the kernel keeps 15 characters), then
// gives it back its old name: a profile tells the server's threads from the client's by it
// (perf's "comm"), as top -H and gdb show it.
class ThreadName
{
public:
    static constexpr const char *server = "servelab-server";
    static constexpr const char *client = "servelab-client";

    explicit ThreadName(const char *name)
    {
        m_saved = pthread_getname_np(pthread_self(), m_old, sizeof m_old) == 0;
        pthread_setname_np(pthread_self(), name);
    }
    ~ThreadName()
    {
        if (m_saved)
            pthread_setname_np(pthread_self(), m_old);
    }
    ThreadName(const ThreadName &) = delete;
    ThreadName &operator=(const ThreadName &) = delete;

private:
    char m_old[16] = {};
    bool m_saved = false;
};

} // namespace servelab::os
