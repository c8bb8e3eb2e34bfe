#pragma once
// The kernel host's confinement (run in the child, after the kernel's library is loaded and its
// worker threads started): from then on every thread of the process can only compute. A call the
// filter does not allow raises SIGSYS in the thread that made it (the host's handler reports it
// and ends the process); open, socket, execve, fork, kill, ptrace and the rest never run.
#include <optional>
#include <string>

namespace kc::sandbox {

struct ComputeOnlyLimits {
    unsigned long long cpu_seconds = 3600;          // RLIMIT_CPU: a backstop; the watchdog stops frames
    unsigned long long address_space = 32ULL << 30; // RLIMIT_AS (not set under ASan, which maps terabytes)
};

// Sets the rlimits, no new privileges, and the seccomp filter on every thread (TSYNC). Allowed:
// reading the command pipe, writing the reply pipe, stdout (a kernel's printf) and stderr, memory (mmap, munmap,
// mprotect, mremap, brk, madvise), futex, threads (clone with CLONE_THREAD; clone3 answers ENOSYS so glibc falls back
// to clone), signals' return and masks, the clocks, sleeping, yielding, exit. Returns why it failed, or nullopt.
std::optional<std::string> enter_compute_only(const ComputeOnlyLimits& limits = {});

} // namespace kc::sandbox
