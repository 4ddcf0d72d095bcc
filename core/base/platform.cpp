#include "base/platform.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace attn::platform {

std::uint64_t physicalMemoryBytes()
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return std::uint64_t(pages) * std::uint64_t(pageSize);
#endif
    return 0;
}

void adviseHugePages(void* memory, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    (void)::madvise(memory, bytes, MADV_HUGEPAGE); // advice: without it, 4 KB pages
#else
    (void)memory;
    (void)bytes;
#endif
}

bool canPrefaultForWriting()
{
#if defined(__linux__)
    return true;
#else
    return false;
#endif
}

void prefaultForWriting(void* memory, std::size_t bytes)
{
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; Debian 12's headers predate it
#endif
    (void)::madvise(memory, bytes, MADV_POPULATE_WRITE);
#else
    (void)memory;
    (void)bytes;
#endif
}

} // namespace attn::platform
