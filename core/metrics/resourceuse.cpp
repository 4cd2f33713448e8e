// SPDX-License-Identifier: Apache-2.0
#include "resourceuse.h"

#include <cinttypes>
#include <cstdio>
#include <sys/resource.h>

namespace servelab::metrics {

namespace {

std::int64_t micros(const timeval &t)
{
    return std::int64_t(t.tv_sec) * 1'000'000 + t.tv_usec;
}

bool empty(const ResourceUse &u)
{
    for (const auto &f : ResourceUse::fields)
        if (u.*f.member >= 0)
            return false;
    return true;
}

} // namespace

SchedStat readSchedStat(const char *path)
{
    SchedStat out;
    std::int64_t ran = 0, waited = 0;
    if (FILE *f = std::fopen(path, "re")) {
        if (std::fscanf(f, "%" SCNd64 " %" SCNd64, &ran, &waited) == 2)
            out = {ran / 1000, waited / 1000};
        std::fclose(f);
    }
    return out;
}

ResourceUse &ResourceUse::operator+=(const ResourceUse &other)
{
    if (empty(*this))
        return *this = other;
    for (const auto &f : fields)
        this->*f.member =
            this->*f.member < 0 || other.*f.member < 0 ? -1 : this->*f.member + other.*f.member;
    return *this;
}

ResourceUse ResourceUse::operator-(const ResourceUse &earlier) const
{
    ResourceUse out;
    for (const auto &f : fields)
        if (this->*f.member >= 0 && earlier.*f.member >= 0)
            out.*f.member = this->*f.member - earlier.*f.member;
    out.busyThreads = busyThreads; // a count of the interval, not a counter
    return out;
}

ResourceUse ResourceUse::ofThisThread()
{
    rusage r{};
    ResourceUse u;
    if (getrusage(RUSAGE_THREAD, &r) != 0)
        return u;
    u.userMicros = micros(r.ru_utime);
    u.systemMicros = micros(r.ru_stime);
    u.voluntarySwitches = r.ru_nvcsw;
    u.involuntarySwitches = r.ru_nivcsw;
    u.minorFaults = r.ru_minflt;
    u.majorFaults = r.ru_majflt;
    u.diskReadBytes = std::int64_t(r.ru_inblock) * 512; // in 512-byte blocks
    u.waitMicros = readSchedStat("/proc/thread-self/schedstat").waitMicros;
    return u;
}

} // namespace servelab::metrics
