// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>

namespace servelab::lab {

// What a result depends on besides the spec, read once per run: the kernel, the CPU (its
// name, cores, the CPUs this process may use, frequency governor and limits, SMT), memory (and
// transparent huge pages, NUMA nodes), the descriptor limit, the network sysctls that shape a
// loopback benchmark, and the versions (the run adds its external servers': server_versions).
// Kept with every exported run, so a figure can be compared with another machine's.
QJsonObject machineFacts();

} // namespace servelab::lab
