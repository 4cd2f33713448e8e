// SPDX-License-Identifier: Apache-2.0
#include "interruptwatch.h"

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace servelab::cli {

namespace {

int g_pipe[2] = {-1, -1};
struct sigaction g_previousInt;
struct sigaction g_previousTerm;

void onSignal(int signal)
{
    // The next one is not caught: a second Ctrl-C ends the process.
    std::signal(signal, SIG_DFL);
    const char byte = 's';
    [[maybe_unused]] const auto n = write(g_pipe[1], &byte, 1);
}

} // namespace

InterruptWatch::InterruptWatch(std::function<void()> onStop) : m_onStop(std::move(onStop))
{
    if (pipe2(g_pipe, O_CLOEXEC) != 0)
        return; // no watch: the signals keep their default meaning
    m_readEnd.reset(g_pipe[0]);
    m_writeEnd.reset(g_pipe[1]);
    struct sigaction action
    {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &g_previousInt);
    sigaction(SIGTERM, &action, &g_previousTerm);
    m_thread = std::thread([this] {
        char byte = 0;
        while (read(m_readEnd.get(), &byte, 1) < 0 && errno == EINTR) {
        }
        if (byte == 's') {
            m_interrupted = true;
            m_onStop();
        }
    });
}

InterruptWatch::~InterruptWatch()
{
    if (!m_thread.joinable())
        return;
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
    const char byte = 'q'; // wakes the thread without a stop
    [[maybe_unused]] const auto n = write(m_writeEnd.get(), &byte, 1);
    m_thread.join();
    g_pipe[0] = g_pipe[1] = -1; // the ends close with this watch
}

} // namespace servelab::cli
