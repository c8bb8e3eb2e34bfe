#pragma once
// How the kernel host runs a frame of the loaded kernel library (inside the child, before and
// after confinement): loading happens before the seccomp filter, running after it.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "sandbox/host_abi.h"

namespace kc::sandbox {

class HostRunner {
public:
    virtual ~HostRunner() = default;
    // Paints one frame into the shared memory at `shared` (FrameCommand's offsets); returns the
    // runner's refusal (a divergent barrier, a launch it cannot run), or nullopt.
    virtual std::optional<std::string> run(const FrameCommand& command, std::byte* shared) = 0;
    // Async-signal-safe: the block and thread the calling OS thread runs now, if known.
    virtual bool current_thread(unsigned block[3], unsigned thread[3]) const = 0;
};

// Loads the kernel library at `so_path` (dlopen, every symbol bound now). A library exporting
// kc_sandbox_plain_paint (the sandbox's own tests) is called as it is; otherwise it is a kernel
// compiled by cpukernel/. Returns null and sets `why` when it cannot be loaded.
std::unique_ptr<HostRunner> load_host_runner(const char* so_path, std::string& why);

} // namespace kc::sandbox
