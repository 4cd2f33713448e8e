// SPDX-License-Identifier: Apache-2.0
#include "uringsupport.h"

#include "servelab_config.h"

#include <fstream>
#include <mutex>
#include <thread>

#if HAVE_LIBURING
#include <cstring>
#include <liburing.h>
#endif

namespace servelab::server {

namespace {

std::string disabledSetting()
{
    std::ifstream file("/proc/sys/kernel/io_uring_disabled");
    int value = 0;
    if (file >> value && value != 0)
        return " (/proc/sys/kernel/io_uring_disabled is " + std::to_string(value) +
               "; 0 allows io_uring for everyone)";
    return {};
}

std::string probe()
{
#if HAVE_LIBURING
    io_uring ring;
    const int rc = io_uring_queue_init(2, &ring, 0);
    if (rc < 0)
        return "the kernel refused io_uring_setup: " + std::string(std::strerror(-rc)) +
               disabledSetting();
    std::string missing;
    if (io_uring_probe *ops = io_uring_get_probe_ring(&ring)) {
        for (const auto &[op, name] :
             {std::pair{IORING_OP_ACCEPT, "accept"}, std::pair{IORING_OP_POLL_ADD, "poll_add"},
              std::pair{IORING_OP_ASYNC_CANCEL, "async_cancel"}})
            if (!io_uring_opcode_supported(ops, op))
                missing += missing.empty() ? name : std::string(", ") + name;
        io_uring_free_probe(ops);
    } else {
        missing = "(the kernel cannot tell: IORING_REGISTER_PROBE failed)";
    }
    io_uring_queue_exit(&ring);
    if (!missing.empty())
        return "this kernel's io_uring lacks " + missing + " (Linux 5.19 or later has them all)";
    return {};
#else
    return "this build has no liburing (install liburing-dev and rebuild)";
#endif
}

} // namespace

bool uringAvailable(std::string *reason)
{
    static std::once_flag once;
    static std::string why;
    // On a thread of its own: a thread that set up a ring is interrupted by the kernel when
    // the ring goes away (see UringLoop::setUpRing).
    std::call_once(once, [] { std::thread([] { why = probe(); }).join(); });
    if (reason)
        *reason = why;
    return why.empty();
}

} // namespace servelab::server
