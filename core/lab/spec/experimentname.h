// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

struct ExperimentSpec;

// A name for an experiment made from what it holds, for when its author gave none: its targets
// (the first three, then how many more), its sizes and its loads when it has several
// ("epoll+sendfile, nginx over 4K..32M", "blocking+copy, poller+copy over 1M under fhb, ab").
QString experimentName(const ExperimentSpec &spec);

} // namespace servelab::lab
