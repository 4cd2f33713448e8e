// SPDX-License-Identifier: Apache-2.0
#include "pointcost.h"

namespace servelab::lab {

namespace {

using metrics::ResourceUse;
using Side = PointCost::Side;
using Per = PointCost::Per;

// clang-format off
constexpr PointCost table[] = {
    {"server_cpu_us_per_req", "server CPU µs/req", Side::Server, nullptr, Per::Request, 1},
    {"server_user_us_per_req", "server user µs/req", Side::Server, &ResourceUse::userMicros, Per::Request, 1},
    {"server_system_us_per_req", "server system µs/req", Side::Server, &ResourceUse::systemMicros, Per::Request, 1},
    {"server_voluntary_switches_per_req", "server voluntary switches/req", Side::Server, &ResourceUse::voluntarySwitches, Per::Request, 3},
    {"server_involuntary_switches_per_req", "server involuntary switches/req", Side::Server, &ResourceUse::involuntarySwitches, Per::Request, 3},
    {"server_minor_faults_per_req", "server minor faults/req", Side::Server, &ResourceUse::minorFaults, Per::Request, 3},
    {"server_major_faults_per_req", "server major faults/req", Side::Server, &ResourceUse::majorFaults, Per::Request, 3},
    {"server_disk_read_bytes_per_req", "server disk bytes read/req", Side::Server, &ResourceUse::diskReadBytes, Per::Request, 0},
    {"server_syscalls_per_req", "server syscalls/req", Side::Server, &ResourceUse::syscalls, Per::Request, 2},
    {"server_syscalls_per_mib", "server syscalls/MiB", Side::Server, &ResourceUse::syscalls, Per::MiB, 1},
    {"client_cpu_us_per_req", "client CPU µs/req", Side::Client, nullptr, Per::Request, 1},
    {"client_user_us_per_req", "client user µs/req", Side::Client, &ResourceUse::userMicros, Per::Request, 1},
    {"client_system_us_per_req", "client system µs/req", Side::Client, &ResourceUse::systemMicros, Per::Request, 1},
    {"client_voluntary_switches_per_req", "client voluntary switches/req", Side::Client, &ResourceUse::voluntarySwitches, Per::Request, 3},
    {"client_involuntary_switches_per_req", "client involuntary switches/req", Side::Client, &ResourceUse::involuntarySwitches, Per::Request, 3},
    {"client_minor_faults_per_req", "client minor faults/req", Side::Client, &ResourceUse::minorFaults, Per::Request, 3},
    {"client_major_faults_per_req", "client major faults/req", Side::Client, &ResourceUse::majorFaults, Per::Request, 3},
    {"client_disk_read_bytes_per_req", "client disk bytes read/req", Side::Client, &ResourceUse::diskReadBytes, Per::Request, 0},
    {"client_syscalls_per_req", "client syscalls/req", Side::Client, &ResourceUse::syscalls, Per::Request, 2},
    {"client_syscalls_per_mib", "client syscalls/MiB", Side::Client, &ResourceUse::syscalls, Per::MiB, 1},
};
// clang-format on

} // namespace

double PointCost::requests(const PointResult &p, Side side)
{
    if (side == Side::Server && p.serverCounted && p.server.requests > 0)
        return double(p.server.requests);
    return double(p.load.completed + p.outsideSteady);
}

double PointCost::of(const PointResult &p) const
{
    const ResourceUse &use = side == Side::Server ? p.serverUse : p.load.clientUse;
    const std::int64_t total = member ? use.*member : use.cpuMicros();
    if (p.dnf || total < 0)
        return -1;
    const double over =
        per == Per::Request ? requests(p, side) : double(p.load.bytesRead) / (1024.0 * 1024.0);
    return over > 0 ? double(total) / over : -1;
}

QString PointCost::text(const PointResult &p) const
{
    const double value = of(p);
    return value < 0 ? QString() : QString::number(value, 'f', decimals);
}

std::span<const PointCost> PointCost::rows()
{
    return table;
}

const PointCost &PointCost::serverCpu()
{
    return table[0];
}

const PointCost &PointCost::clientCpu()
{
    return table[10];
}

} // namespace servelab::lab
