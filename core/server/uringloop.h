// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection.h"
#include "os/uniquefd.h"
#include "threadstate.h"
#include "worker.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <liburing.h>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace servelab::server {

// One thread of the `uring` model: its own io_uring. Connections are accepted by a multishot
// IORING_OP_ACCEPT on the shared listening socket (single-shot on kernels without it) and
// waited on with one-shot IORING_OP_POLL_ADD; the connection's state machine and the body
// transfer then do their reads and writes as the other models do. Requests are keyed by a
// connection id, never a pointer, so a completion that arrives after its connection closed is
// recognised and dropped.
class UringLoop final : public Worker
{
public:
    UringLoop(int listenFd, const ServerShared &shared);
    UringLoop(const UringLoop &) = delete;
    UringLoop &operator=(const UringLoop &) = delete;
    ~UringLoop() override;

    bool init(std::string *error) override;
    void run() override;
    bool waitReady(std::string *error) override;
    void requestStop() override;
    ServerStats stats() const override { return m_state.stats.snapshot(); }

private:
    struct Slot
    {
        std::unique_ptr<Connection> connection;
        bool polling = false; // a POLL_ADD is in the ring for it
    };

    bool setUpRing();
    io_uring_sqe *sqe();
    void armAccept();
    void armWake();
    void onAccepted(int result, unsigned flags);
    void pauseAccepting(std::chrono::milliseconds pause); // cancels a multishot accept
    void onPolled(std::uint64_t id, int result);
    void apply(std::uint64_t id, Connection::Next next);
    void drop(std::uint64_t id);
    void runYielded();
    void expireTimers();

    int m_listenFd;
    os::UniqueFd m_wakeFd;
    io_uring m_ring{};
    bool m_ringReady = false;
    std::promise<std::string> m_setUp; // empty once the ring is up, else why it is not
    std::future<std::string> m_setUpResult = m_setUp.get_future();
    bool m_multishotAccept = true;
    bool m_acceptArmed = false;
    std::int64_t m_acceptResumeMs = 0; // > 0: accepting paused (EMFILE) until then
    std::atomic<bool> m_stopping{false};
    ThreadState m_state;
    std::unordered_map<std::uint64_t, Slot> m_slots;
    std::vector<std::uint64_t> m_yielded;
    std::uint64_t m_nextId;
    std::int64_t m_nextTimerScanMs = 0;
    bool m_tcpNoDelay;
};

} // namespace servelab::server
