// SPDX-License-Identifier: Apache-2.0
#include "scheduledloop.h"

#include "clienthabits.h"
#include "loadloop.h"

#include <thread>

namespace servelab::client {

void runScheduledThreads(const ClientOptions &options, const RequestTarget &target,
                         std::int64_t start, std::int64_t end,
                         const std::function<double(int)> &firstDue,
                         const std::vector<ReactorPolicy *> &policies, const StopSignal &stop)
{
    const int threadCount = static_cast<int>(policies.size());
    std::vector<std::thread> threads;
    int first = 0;
    for (int i = 0; i < threadCount; ++i) {
        ClientReactor reactor{.options = options,
                              .target = target,
                              .firstDue = {},
                              .start = start,
                              .end = end,
                              .thread = i};
        const int connections = threadShare(options.concurrency, threadCount, i) *
                                options.streamsPerConnection(); // slots
        for (int j = 0; j < connections; ++j)
            reactor.firstDue.push_back(firstDue(first + j));
        first += connections;
        threads.emplace_back([&options, &target, &stop, reactor = std::move(reactor),
                              policy = policies[std::size_t(i)]] {
            ClientHabits habits(options, target, reactor.thread);
            reactor.run(*policy, habits, stop);
        });
    }
    for (auto &thread : threads)
        thread.join();
}

} // namespace servelab::client
