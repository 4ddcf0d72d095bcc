// The operating system's calls the numbers make outside file input and output (which
// io/mappedfile and io/atomicwrite hold), each in this one place, so that a port to another
// system touches these files alone. Where a call is not offered, it does nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::platform {

// The machine's physical memory in bytes; 0 when the system does not say.
[[nodiscard]] std::uint64_t physicalMemoryBytes();

// Advice that `bytes` at `memory` be backed by huge pages (2 MB on x86-64 Linux).
void adviseHugePages(void* memory, std::size_t bytes);

// Whether prefaultForWriting() does anything here (Linux 5.14 and later understand it;
// an older kernel refuses the call and the pages fault in as they are written).
[[nodiscard]] bool canPrefaultForWriting();
// Has the system map (and zero) the whole pages of `bytes` at `memory` now, for writing.
void prefaultForWriting(void* memory, std::size_t bytes);

} // namespace attn::platform
