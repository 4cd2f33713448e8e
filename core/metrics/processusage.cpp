// SPDX-License-Identifier: Apache-2.0
#include "processusage.h"

#include "clock.h"
#include "processtreeprobe.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <unistd.h>

namespace servelab::metrics {

namespace {

std::string slurp(const std::string &path)
{
    std::string out;
    if (FILE *f = std::fopen(path.c_str(), "re")) {
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
            out.append(buffer, n);
        std::fclose(f);
    }
    return out;
}

// The value after "key:" at a line's start in a /proc status or io file; -1 when absent.
std::int64_t keyed(const std::string &text, const char *key)
{
    const std::string needle = std::string(key) + ':';
    for (std::size_t at = 0; at < text.size();) {
        if (text.compare(at, needle.size(), needle) == 0)
            return std::strtoll(text.c_str() + at + needle.size(), nullptr, 10);
        at = text.find('\n', at);
        if (at == std::string::npos)
            break;
        ++at;
    }
    return -1;
}

// Fields of a /proc stat file after the command's closing parenthesis, from field 3 (state).
std::vector<std::int64_t> statFields(const std::string &text)
{
    std::vector<std::int64_t> fields;
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos)
        return fields;
    const char *p = text.c_str() + close + 2;
    fields.push_back(0); // the state, a letter
    while (*p && *p != ' ')
        ++p;
    while (*p) {
        char *end = nullptr;
        fields.push_back(std::strtoll(p, &end, 10));
        if (end == p)
            break;
        p = end;
    }
    return fields; // fields[0] is field 3; field n is fields[n - 3]
}

std::int64_t ticksToMicros(std::int64_t ticks)
{
    static const long perSecond = sysconf(_SC_CLK_TCK);
    return ticks * 1'000'000 / (perSecond > 0 ? perSecond : 100);
}

template<typename Visit>
void forEachThread(pid_t pid, Visit visit)
{
    const std::string folder = "/proc/" + std::to_string(pid) + "/task";
    DIR *dir = opendir(folder.c_str());
    if (!dir)
        return;
    while (const dirent *e = readdir(dir))
        if (e->d_name[0] != '.')
            visit(pid_t(std::atoi(e->d_name)), folder + '/' + e->d_name);
    closedir(dir);
}

} // namespace

ProcessUsage::Reading ProcessUsage::read(const std::vector<pid_t> &roots, bool tree)
{
    Reading r;
    r.atMicros = monotonicMicros();
    std::vector<pid_t> pids = roots;
    if (tree)
        for (pid_t root : roots)
            for (pid_t child : ProcessTreeProbe::descendants(root))
                pids.push_back(child);
    for (pid_t pid : pids)
        forEachThread(pid, [&](pid_t tid, const std::string &folder) {
            const auto stat = statFields(slurp(folder + "/stat"));
            if (stat.size() < 13)
                return; // gone meanwhile
            Thread t;
            t.tid = tid;
            t.minorFaults = stat[10 - 3];
            t.majorFaults = stat[12 - 3];
            t.userTicksMicros = ticksToMicros(stat[14 - 3]);
            t.systemTicksMicros = ticksToMicros(stat[15 - 3]);
            const SchedStat sched = readSchedStat((folder + "/schedstat").c_str());
            t.cpuMicros =
                sched.ranMicros > 0 ? sched.ranMicros : t.userTicksMicros + t.systemTicksMicros;
            t.waitMicros = sched.waitMicros;
            const std::string status = slurp(folder + "/status");
            t.voluntarySwitches =
                std::max<std::int64_t>(0, keyed(status, "voluntary_ctxt_switches"));
            t.involuntarySwitches =
                std::max<std::int64_t>(0, keyed(status, "nonvoluntary_ctxt_switches"));
            t.diskReadBytes = keyed(slurp(folder + "/io"), "read_bytes");
            r.threads.push_back(t);
        });
    std::sort(r.threads.begin(), r.threads.end(),
              [](const Thread &a, const Thread &b) { return a.tid < b.tid; });
    return r;
}

std::vector<pid_t> ProcessUsage::threadsOf(const std::vector<pid_t> &pids)
{
    std::vector<pid_t> tids;
    for (pid_t pid : pids)
        forEachThread(pid, [&](pid_t tid, const std::string &) { tids.push_back(tid); });
    return tids;
}

ResourceUse ProcessUsage::between(const Reading &before, const Reading &after)
{
    ResourceUse used;
    if (after.threads.empty())
        return used;
    for (const auto &f : ResourceUse::fields)
        used.*f.member = 0;
    used.syscalls = -1;
    const double elapsed = double(std::max<std::int64_t>(1, after.atMicros - before.atMicros));
    std::int64_t cpu = 0;
    std::int64_t userTicks = 0;
    std::int64_t ticks = 0;
    for (const Thread &now : after.threads) {
        const auto at = std::lower_bound(before.threads.begin(), before.threads.end(), now.tid,
                                         [](const Thread &t, pid_t tid) { return t.tid < tid; });
        const Thread then = at != before.threads.end() && at->tid == now.tid
                                ? *at
                                : Thread{.tid = now.tid,
                                         .diskReadBytes = now.diskReadBytes < 0 ? -1 : 0,
                                         .waitMicros = now.waitMicros < 0 ? -1 : 0};
        const std::int64_t ran = now.cpuMicros - then.cpuMicros;
        cpu += ran;
        userTicks += now.userTicksMicros - then.userTicksMicros;
        ticks += now.userTicksMicros - then.userTicksMicros + now.systemTicksMicros -
                 then.systemTicksMicros;
        used.voluntarySwitches += now.voluntarySwitches - then.voluntarySwitches;
        used.involuntarySwitches += now.involuntarySwitches - then.involuntarySwitches;
        used.minorFaults += now.minorFaults - then.minorFaults;
        used.majorFaults += now.majorFaults - then.majorFaults;
        used.diskReadBytes =
            used.diskReadBytes < 0 || now.diskReadBytes < 0 || then.diskReadBytes < 0
                ? -1
                : used.diskReadBytes + now.diskReadBytes - then.diskReadBytes;
        used.waitMicros = used.waitMicros < 0 || now.waitMicros < 0 || then.waitMicros < 0
                              ? -1
                              : used.waitMicros + now.waitMicros - then.waitMicros;
        if (double(ran) >= busyShare * elapsed)
            ++used.busyThreads;
    }
    // The precise CPU time, split between user and system as the ticks were (below a tick the
    // kernel gives no split: half each).
    cpu = std::max<std::int64_t>(0, cpu);
    used.userMicros =
        ticks > 0 ? cpu * std::clamp<std::int64_t>(userTicks, 0, ticks) / ticks : cpu / 2;
    used.systemMicros = cpu - used.userMicros;
    return used;
}

} // namespace servelab::metrics
