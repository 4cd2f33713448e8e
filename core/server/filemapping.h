// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

namespace servelab::server {

// A read-only mmap() of a whole file, unmapped on destruction. Move-only.
class FileMapping
{
public:
    FileMapping() = default;
    FileMapping(FileMapping &&other) noexcept;
    FileMapping &operator=(FileMapping &&other) noexcept;
    FileMapping(const FileMapping &) = delete;
    FileMapping &operator=(const FileMapping &) = delete;
    ~FileMapping();

    bool map(int fd, std::size_t length); // false with errno set
    void reset();
    bool mapped() const { return m_address != nullptr; }
    const char *data() const { return static_cast<const char *>(m_address); }

private:
    void *m_address = nullptr;
    std::size_t m_length = 0;
};

} // namespace servelab::server
