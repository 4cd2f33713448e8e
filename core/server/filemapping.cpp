// SPDX-License-Identifier: Apache-2.0
#include "filemapping.h"

#include <sys/mman.h>
#include <utility>

namespace servelab::server {

FileMapping::FileMapping(FileMapping &&other) noexcept
    : m_address(std::exchange(other.m_address, nullptr)), m_length(std::exchange(other.m_length, 0))
{}

FileMapping &FileMapping::operator=(FileMapping &&other) noexcept
{
    if (this != &other) {
        reset();
        m_address = std::exchange(other.m_address, nullptr);
        m_length = std::exchange(other.m_length, 0);
    }
    return *this;
}

FileMapping::~FileMapping()
{
    reset();
}

bool FileMapping::map(int fd, std::size_t length)
{
    reset();
    void *address = mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED)
        return false;
    // The whole body is read once, front to back.
    madvise(address, length, MADV_SEQUENTIAL);
    m_address = address;
    m_length = length;
    return true;
}

void FileMapping::reset()
{
    if (m_address)
        munmap(m_address, m_length);
    m_address = nullptr;
    m_length = 0;
}

} // namespace servelab::server
