// SPDX-License-Identifier: Apache-2.0
#include "clientsample.h"

#include "intervalsampler.h"

#include <map>

namespace servelab::client {

std::vector<ClientSample> sumByInterval(const std::vector<ClientSample> &samples)
{
    constexpr std::int64_t period = IntervalSampler::periodMicros;
    std::map<std::int64_t, ClientSample> slots;
    for (const auto &sample : samples) {
        auto &slot = slots[(sample.endMicros + period / 2) / period];
        slot.thread = -1;
        slot.endMicros = std::max(slot.endMicros, sample.endMicros);
        slot.intervalMicros = std::max(slot.intervalMicros, sample.intervalMicros);
        slot.completed += sample.completed;
        slot.ok += sample.ok;
        slot.failed += sample.failed;
        slot.bytesRead += sample.bytesRead;
        slot.openConnections += sample.openConnections;
        slot.latency.merge(sample.latency);
    }
    std::vector<ClientSample> out;
    out.reserve(slots.size());
    for (auto &[index, slot] : slots)
        out.push_back(std::move(slot));
    return out;
}

void SampleQueue::publish(ClientSample sample)
{
    std::lock_guard lock(m_mutex);
    m_samples.push_back(std::move(sample));
}

std::vector<ClientSample> SampleQueue::drain()
{
    std::lock_guard lock(m_mutex);
    std::vector<ClientSample> out(std::make_move_iterator(m_samples.begin()),
                                  std::make_move_iterator(m_samples.end()));
    m_samples.clear();
    return out;
}

} // namespace servelab::client
