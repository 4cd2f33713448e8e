#include "clientsample.h"

namespace servelab::client {

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
