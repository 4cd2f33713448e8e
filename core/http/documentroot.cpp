// SPDX-License-Identifier: Apache-2.0
#include "documentroot.h"

#include "mimetype.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace servelab::http {

namespace {

// O_NONBLOCK keeps a FIFO planted in the root from blocking a server thread in open().
constexpr int openFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

std::atomic<bool> haveOpenat2{true};

int openat2Beneath(int dirFd, const char *path)
{
    open_how how{};
    how.flags = openFlags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return static_cast<int>(syscall(SYS_openat2, dirFd, path, &how, sizeof how));
}

// Fallback for kernels without openat2: walk the components, refusing every symlink.
int openByComponents(int dirFd, const std::string &relative)
{
    os::UniqueFd current(dup(dirFd));
    std::size_t start = 0;
    while (current) {
        const auto slash = relative.find('/', start);
        const bool last = slash == std::string::npos;
        const auto name = relative.substr(start, last ? std::string::npos : slash - start);
        os::UniqueFd next(
            openat(current.get(), name.c_str(), openFlags | O_NOFOLLOW | (last ? 0 : O_DIRECTORY)));
        const int saved = errno;
        current = std::move(next);
        errno = saved;
        if (last)
            break;
        start = slash + 1;
    }
    return current.release();
}

int statusForErrno(int error)
{
    switch (error) {
    case ENOENT:
    case ENOTDIR:
    case EXDEV:
    case ELOOP:
    case ENAMETOOLONG:
        return 404; // EXDEV/ELOOP: a symlink that leads out of the root is as good as absent
    case EACCES:
    case EPERM: return 403;
    case EMFILE:
    case ENFILE: return 503;
    default: return 500;
    }
}

} // namespace

OpenedFile &OpenedFile::operator=(OpenedFile &&other) noexcept
{
    if (this != &other) {
        status = other.status;
        fd = std::exchange(other.fd, -1);
        size = other.size;
        modified = other.modified;
        device = other.device;
        inode = other.inode;
        changedNs = other.changedNs;
        contentType = other.contentType;
        owner = std::move(other.owner);
        owned = std::move(other.owned);
    }
    return *this;
}

bool DocumentRoot::open(const std::string &path, std::string *error)
{
    os::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd) {
        if (error)
            *error = "cannot open document root " + path + ": " + std::strerror(errno);
        return false;
    }
    if (faccessat(fd.get(), ".", R_OK | X_OK, AT_EACCESS) != 0) {
        if (error)
            *error = "cannot read document root " + path + ": " + std::strerror(errno);
        return false;
    }
    m_fd = std::move(fd);
    m_path = path;
    return true;
}

int DocumentRoot::openBeneath(const std::string &relative) const
{
    const char *path = relative.empty() ? "." : relative.c_str();
    if (haveOpenat2.load(std::memory_order_relaxed)) {
        const int fd = openat2Beneath(m_fd.get(), path);
        if (fd >= 0 || errno != ENOSYS)
            return fd;
        haveOpenat2.store(false, std::memory_order_relaxed);
    }
    return relative.empty() ? openat(m_fd.get(), ".", openFlags)
                            : openByComponents(m_fd.get(), relative);
}

OpenedFile DocumentRoot::openFile(const std::string &relative) const
{
    OpenedFile file;
    file.owned.reset(openBeneath(relative));
    file.fd = file.owned.get();
    struct stat st
    {};
    if (file.fd >= 0 && fstat(file.fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        file = openFile(relative.empty() ? std::string("index.html") : relative + "/index.html");
        // A folder without index.html exists but is not listed: 403, as nginx and Apache say.
        if (file.status == 404)
            file.status = 403;
        return file;
    }
    if (file.fd < 0) {
        file.status = statusForErrno(errno);
        return file;
    }
    if (!S_ISREG(st.st_mode)) {
        file.owned.reset();
        file.fd = -1;
        file.status = 403;
        return file;
    }
    file.status = 200;
    file.size = static_cast<std::uint64_t>(st.st_size);
    file.modified = st.st_mtim.tv_sec;
    file.device = st.st_dev;
    file.inode = st.st_ino;
    file.changedNs = std::int64_t(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
    file.contentType = mimeTypeFor(relative);
    return file;
}

} // namespace servelab::http
