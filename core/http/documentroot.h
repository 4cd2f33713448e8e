// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <cstdint>
#include <ctime>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace servelab::http {

// An open file ready to be served. `fd` is the descriptor to read: held by `owned` when the
// file was opened for this response, or by an open-file cache entry, which `owner` keeps alive
// until this response is done. Move-only.
struct OpenedFile
{
    int status = 0; // 200 when fd is valid, else 403, 404 or 500
    int fd = -1;
    std::uint64_t size = 0;
    std::time_t modified = 0;
    // Which version of which file this is: any write, truncation, rename over it or change of
    // its metadata gives another (st_dev, st_ino, st_ctim). What a kept mapping is checked by.
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t changedNs = 0;
    std::string_view contentType;
    std::shared_ptr<const void> owner;
    os::UniqueFd owned;

    OpenedFile() = default;
    OpenedFile(OpenedFile &&other) noexcept { *this = std::move(other); }
    OpenedFile &operator=(OpenedFile &&other) noexcept;
    OpenedFile(const OpenedFile &) = delete;
    OpenedFile &operator=(const OpenedFile &) = delete;
    ~OpenedFile() = default;
};

// The directory a server serves. Files are opened beneath it with openat2(RESOLVE_BENEATH), so
// neither a symlink nor a rename race can lead outside; where openat2 is missing (Linux < 5.6)
// every component is opened with O_NOFOLLOW instead, which refuses symlinks altogether.
class DocumentRoot
{
public:
    DocumentRoot() = default;
    DocumentRoot(const DocumentRoot &) = delete;
    DocumentRoot &operator=(const DocumentRoot &) = delete;
    ~DocumentRoot() = default;

    // Opens the directory; on failure returns false and sets *error to a sentence.
    bool open(const std::string &path, std::string *error);
    const std::string &path() const { return m_path; }

    // `relative` comes from normalizedPath(); "" is the root. Directories serve index.html.
    OpenedFile openFile(const std::string &relative) const;

private:
    int openBeneath(const std::string &relative) const;

    std::string m_path;
    os::UniqueFd m_fd;
};

} // namespace servelab::http
