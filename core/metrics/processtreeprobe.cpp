// SPDX-License-Identifier: Apache-2.0
#include "processtreeprobe.h"

#include "clock.h"
#include "os/uniquefd.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>
#include <utility>

namespace servelab::metrics {

namespace {

// The whole numbers of a folder's entries ("/proc", "/proc/PID/task").
std::vector<pid_t> numberedEntries(const std::string &folder)
{
    std::vector<pid_t> out;
    DIR *dir = opendir(folder.c_str());
    if (!dir)
        return out;
    while (const dirent *entry = readdir(dir)) {
        pid_t n = 0;
        const char *end = entry->d_name + std::strlen(entry->d_name);
        if (const auto [ptr, ec] = std::from_chars(entry->d_name, end, n);
            ec == std::errc() && ptr == end)
            out.push_back(n);
    }
    closedir(dir);
    return out;
}

// A small /proc file whole ("" when it cannot be read).
std::string readSmall(const std::string &path)
{
    const os::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd)
        return {};
    std::string text(4096, '\0');
    std::size_t used = 0;
    for (ssize_t n; (n = ::read(fd.get(), text.data() + used, text.size() - used)) > 0;) {
        used += std::size_t(n);
        if (used == text.size())
            text.resize(text.size() * 2);
    }
    text.resize(used);
    return text;
}

void appendNumbers(std::string_view text, std::vector<pid_t> *out)
{
    while (!text.empty()) {
        const std::size_t start = text.find_first_not_of(' ');
        if (start == std::string_view::npos)
            break;
        text.remove_prefix(start);
        pid_t n = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc())
            break;
        out->push_back(n);
        text.remove_prefix(std::size_t(ptr - text.data()));
    }
}

// The children of `pid` from its threads' children files; false when this kernel has none.
bool childrenOf(pid_t pid, std::vector<pid_t> *out)
{
    const std::string base = "/proc/" + std::to_string(pid) + "/task/";
    if (access((base + std::to_string(pid) + "/children").c_str(), F_OK) != 0 && errno == ENOENT &&
        access((base + std::to_string(pid)).c_str(), F_OK) == 0)
        return false; // the thread is there, its children file is not
    for (pid_t tid : numberedEntries(base))
        appendNumbers(readSmall(base + std::to_string(tid) + "/children"), out);
    return true;
}

// Every process's parent, from /proc/PID/stat: "pid (comm) state ppid ...".
std::vector<std::pair<pid_t, pid_t>> parents()
{
    std::vector<std::pair<pid_t, pid_t>> out; // (parent, child)
    for (pid_t pid : numberedEntries("/proc")) {
        const std::string stat = readSmall("/proc/" + std::to_string(pid) + "/stat");
        const std::size_t close = stat.rfind(')');
        if (close == std::string::npos || close + 4 >= stat.size())
            continue;
        pid_t parent = 0;
        const char *from = stat.data() + close + 4; // past ") S "
        std::from_chars(from, stat.data() + stat.size(), parent);
        out.emplace_back(parent, pid);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

std::vector<pid_t> ProcessTreeProbe::descendants(pid_t root)
{
    std::vector<pid_t> out;
    std::vector<std::pair<pid_t, pid_t>> table; // read only where children files are missing
    bool scanned = false;
    std::deque<pid_t> queue{root};
    while (!queue.empty()) {
        const pid_t pid = queue.front();
        queue.pop_front();
        std::vector<pid_t> children;
        if (!childrenOf(pid, &children)) {
            if (!scanned)
                table = parents();
            scanned = true;
            for (auto it = std::lower_bound(table.begin(), table.end(), std::pair(pid, 0));
                 it != table.end() && it->first == pid; ++it)
                children.push_back(it->second);
        }
        for (pid_t child : children)
            if (child != root && std::find(out.begin(), out.end(), child) == out.end()) {
                out.push_back(child);
                queue.push_back(child);
            }
    }
    return out;
}

bool ProcessTreeProbe::open(pid_t root, bool followChildren, std::string *error)
{
    m_members.clear();
    m_goneUserSeconds = m_goneSystemSeconds = 0;
    m_root = root;
    m_follow = followChildren;
    m_followEvery = 1;
    m_sinceFollow = 0;
    auto probe = std::make_unique<ProcessProbe>();
    if (!probe->open(root, error))
        return false;
    m_members.push_back({std::move(probe)});
    if (m_follow)
        follow();
    return true;
}

// Probes for the descendants that came, none for those that went (their CPU kept).
void ProcessTreeProbe::follow()
{
    const std::vector<pid_t> now = descendants(m_root);
    for (auto it = m_members.begin() + 1; it != m_members.end();) {
        if (std::find(now.begin(), now.end(), it->probe->pid()) != now.end()) {
            ++it;
            continue;
        }
        m_goneUserSeconds += it->userSeconds;
        m_goneSystemSeconds += it->systemSeconds;
        it = m_members.erase(it);
    }
    for (pid_t pid : now) {
        const bool known = std::any_of(m_members.begin(), m_members.end(),
                                       [pid](const Member &m) { return m.probe->pid() == pid; });
        if (known)
            continue;
        auto probe = std::make_unique<ProcessProbe>();
        if (std::string ignored; probe->open(pid, &ignored)) // else gone already
            m_members.push_back({std::move(probe)});
    }
}

ProcessSample ProcessTreeProbe::sample(bool byType)
{
    if (m_follow && (byType || ++m_sinceFollow >= m_followEvery)) {
        const std::int64_t started = threadCpuMicros();
        follow();
        const std::int64_t cost = threadCpuMicros() - started;
        m_sinceFollow = 0;
        m_followEvery = int(
            std::clamp<std::int64_t>((cost + followBudgetMicros - 1) / followBudgetMicros, 1, 20));
    }
    ProcessSample sum;
    sum.atMicros = monotonicMicros();
    bool typed = true;
    for (auto it = m_members.begin(); it != m_members.end();) {
        const ProcessSample s = it->probe->sample(byType);
        const bool root = it == m_members.begin();
        if (!s.alive) {
            if (root)
                return ProcessSample::goneAt(sum.atMicros); // the server is gone
            m_goneUserSeconds += it->userSeconds;
            m_goneSystemSeconds += it->systemSeconds;
            it = m_members.erase(it);
            continue;
        }
        it->userSeconds = s.userSeconds;
        it->systemSeconds = s.systemSeconds;
        if (root)
            sum.fdLimit = s.fdLimit;
        sum.total += s.total;
        typed = typed && s.byType;
        sum.sockets += s.sockets;
        sum.files += s.files;
        sum.pipes += s.pipes;
        sum.anonInodes += s.anonInodes;
        sum.other += s.other;
        sum.threads += s.threads;
        sum.rssBytes += s.rssBytes;
        sum.userSeconds += s.userSeconds;
        sum.systemSeconds += s.systemSeconds;
        sum.parts.push_back(
            {it->probe->pid(), s.total, s.threads, s.rssBytes, s.userSeconds + s.systemSeconds});
        ++it;
    }
    sum.alive = true;
    sum.processes = int(sum.parts.size());
    sum.userSeconds += m_goneUserSeconds;
    sum.systemSeconds += m_goneSystemSeconds;
    sum.byType = typed;
    if (!typed) // some process did not list its types this time: the total alone
        sum.sockets = sum.files = sum.pipes = sum.anonInodes = sum.other = 0;
    if (sum.processes == 1)
        sum.parts.clear(); // one process: nothing to break down
    return sum;
}

std::vector<OpenFd> ProcessTreeProbe::openFds()
{
    std::vector<OpenFd> out;
    for (const Member &m : m_members) {
        std::vector<OpenFd> fds = m.probe->openFds();
        for (OpenFd &fd : fds)
            fd.pid = m.probe->pid() == m_root ? 0 : m.probe->pid();
        out.insert(out.end(), std::make_move_iterator(fds.begin()),
                   std::make_move_iterator(fds.end()));
    }
    return out;
}

} // namespace servelab::metrics
