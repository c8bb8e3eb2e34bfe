#pragma once
// The CPU backend: a grid emulator that runs the same per-thread bodies as the CUDA kernels,
// iterating blockIdx and threadIdx exactly as a launch would, with blocks spread over the cores.
// Custom operations (shared memory, barriers, atomics) run their plain CPU implementation instead.
#include <atomic>
#include <optional>
#include <string>

#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"

namespace kc {

// Why the CPU backend refuses the user's kernel.
inline constexpr const char* kCpuCannotRunUserCode =
    "the cpu backend cannot run your kernel: it is CUDA code compiled by NVRTC for the GPU, and the CPU grid "
    "emulator runs only the built-in ops";
// (The window's painter adds which backends to choose, of those that work on this machine.)

// The most blocks one emulated launch may have: blocks that can reach no pixel are skipped, but
// even skipping 2^31 of them takes seconds a frame, and the window must stay responsive.
inline constexpr long long kMaxEmulatedBlocks = 1LL << 24;

// The plain C++ matmul's rate per hardware thread (measured at N = 512..1024 on a shared 2-core
// Debian 12 VM: 1..1.9 GFLOP/s), and the longest CPU frame the backend starts: an estimate past it
// is refused up front, with the estimate.
inline constexpr double kCpuMatmulFlopsPerThread = 2e9;
inline constexpr double kMaxCpuFrameSeconds = 5.0;
// The fractals' escape-time iterations per second per hardware thread: measured ~2.9e8 per core-second
// (float and double alike, 800x800 all inside the set, 1500 iterations, on the same VM), taken
// lower for slower cores. A frame past the same limit is refused with pixels x iterations.
inline constexpr double kCpuIterationsPerThread = 2e8;

// The smallest step of the clock the emulator's timeline reads (steady_clock), in ns, measured by
// reading it in a loop: shown beside the timeline, as the GPU's %globaltimer step is.
double steady_clock_step_ns();

class CpuGridEmulator {
public:
    explicit CpuGridEmulator(unsigned workers = 0); // 0: one per hardware thread
    // Paints `out` (width*height pixels, host memory). An illegal launch is refused with the same
    // message a CUDA launch gets, and `out` is left untouched. `outputs` receives what custom
    // operations compute besides pixels (histograms, matrices). `record` (host memory) optionally
    // keeps per-pixel writer figures; its `writes` counters must start at zero; its `blocks` (one
    // per block of the grid, zeroed) the SM timeline: each block's worker and start and end.
    std::optional<std::string> paint(const PaintJob& job, Pixel* out, OpOutputs* outputs = nullptr,
                                     PixelRecord record = {}) const;
    // The same with the job's launch resolved already (resolve_launch, refusal unset): no second check.
    // Setting `*stop` ends a grid launch at the next block of each worker (a custom op's plain C++
    // runs to its end); the frame is then unfinished and says so.
    std::optional<std::string> paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out,
                                     OpOutputs* outputs = nullptr, PixelRecord record = {},
                                     const std::atomic<bool>* stop = nullptr) const;
    unsigned workers() const { return workers_; }

private:
    unsigned workers_;
};

} // namespace kc
