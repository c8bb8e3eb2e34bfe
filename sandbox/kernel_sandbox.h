#pragma once
// The user's CPU-compiled kernel, run in a child process that can only compute
// (kcanvas-kernel-host; sandbox/compute_only.h): the frame's images travel in shared memory, the
// commands and replies over a socket and a pipe. A frame past the time limit kills the host (the
// watchdog), a crash or a refused call ends only the host; each is reported as a refusal naming
// what happened, and the next frame starts a fresh host. Not thread-safe: one caller at a time.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

#include "gpu/launch_config.h"
#include "gpu/pixel.h"
#include "gpu/prelude/kcanvas_check_abi.h"
#include "sandbox/shared_memory.h"

namespace kc::sandbox {

inline constexpr std::chrono::milliseconds kDefaultFrameLimit{2000};

// One frame of the loaded kernel. a and b: width*height pixels each. With `writers` (width*height
// words) and `block_sm` (`blocks` words), the checked kernel records who wrote each pixel there.
struct SandboxFrame {
    Dim3 grid, block;
    int width = 0, height = 0;
    float t = 0.0f;
    const Pixel* a = nullptr;
    const Pixel* b = nullptr;
    bool checked = false;
    long long max_blocks = -1;
    bool identity = false;
    unsigned* writers = nullptr;
    unsigned* block_sm = nullptr;
    unsigned long long blocks = 0;
    unsigned workers = 0; // 0: one per hardware thread
};

class KernelSandbox {
public:
    explicit KernelSandbox(std::chrono::milliseconds frame_limit = kDefaultFrameLimit);
    ~KernelSandbox(); // ends the host
    KernelSandbox(const KernelSandbox&) = delete;
    KernelSandbox& operator=(const KernelSandbox&) = delete;

    // Starts a host for the kernel library at `so_path` (ending the one before); why it could not
    // start, or nullopt. The path is kept: a host that ended is started again for the next frame.
    std::optional<std::string> load(const std::string& so_path);
    bool loaded() const { return !so_path_.empty(); }
    // Runs `frame` into `out` (width*height pixels; the kernel starts from what they hold). In
    // checked mode `*violation` receives the frame's out-of-range accesses. Returns why the frame
    // has no picture (the runner's refusal, a crash, a refused call, the time limit), or nullopt.
    std::optional<std::string> run(const SandboxFrame& frame, Pixel* out, KcViolation* violation);
    void set_frame_limit(std::chrono::milliseconds limit) { limit_ = limit; }
    pid_t host_pid() const { return pid_; } // -1 when none runs (tests)

private:
    std::optional<std::string> start();
    std::optional<std::string> await_reply(std::chrono::milliseconds limit, std::string& message);
    std::string ended(int status);
    void stop();

    std::chrono::milliseconds limit_;
    std::string so_path_;
    SharedMemory shared_;
    pid_t pid_ = -1;
    int command_fd_ = -1, reply_fd_ = -1;
};

} // namespace kc::sandbox
