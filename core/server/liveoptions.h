// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "serveroptions.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace servelab::server {

// A running server's options as tuned (seed 003: "modified on the fly ... see the effects
// immediately"). Each thread keeps its own copy, so its hot path reads without a lock; it asks
// generation() once per wake-up (one relaxed load) and copies again only when it moved.
class LiveOptions
{
public:
    explicit LiveOptions(const ServerOptions &options) : m_options(options) {}

    ServerOptions snapshot() const
    {
        std::lock_guard lock(m_mutex);
        return m_options;
    }
    void set(const ServerOptions &options)
    {
        std::lock_guard lock(m_mutex);
        m_options = options;
        m_generation.fetch_add(1, std::memory_order_release);
    }
    std::uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }

private:
    mutable std::mutex m_mutex;
    ServerOptions m_options;
    std::atomic<std::uint64_t> m_generation{0};
};

} // namespace servelab::server
