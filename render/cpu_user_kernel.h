#pragma once
// The user's kernel on the cpu backend (issue 27): compiled for the CPU by cpukernel/ and run in
// the kernel sandbox (sandbox/), a child process that can only compute. Checked mode's views,
// violations, writer record and step mode work as on the GPU (gpu/user_kernel_cuda.cu): the
// frame's record is turned into the views' colours here, after the sandbox painted it.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"
#include "gpu/user_kernel.h"
#include "sandbox/kernel_sandbox.h"

namespace kc {

// Where compiled CPU kernels are cached: $XDG_CACHE_HOME/kcanvas/cpu-kernels, else
// ~/.cache/kcanvas/cpu-kernels.
std::filesystem::path cpu_kernel_cache_dir();

class CpuUserKernel {
public:
    explicit CpuUserKernel(std::filesystem::path cache_dir = cpu_kernel_cache_dir());

    // Compiles `source` for the CPU and starts a sandbox with it; on failure the kernel before
    // (if any) keeps running and the log says why. Not while a frame runs (the painter waits).
    KernelCompile compile(std::string_view source, std::string_view file_name, KernelMode mode);
    bool loaded() const { return sandbox_ != nullptr; }
    const std::string& source() const { return source_; }
    // How long a frame may run before the sandbox's watchdog stops it.
    void set_time_limit(std::chrono::milliseconds limit);

    // Paints `job` into `out` (width*height pixels; the previous frame's). a, b: the input images,
    // or null for the gradient and the checkerboard. With `writer_sm` (resized here) the frame
    // records which worker wrote each pixel, for the inspector. Returns why there is no picture.
    std::optional<std::string> paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, const Pixel* a,
                                     const Pixel* b, std::vector<unsigned>* writer_sm, OpOutputs& outputs);

private:
    const Pixel* fallback(int image, const PaintJob& job);
    void show_writers(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, unsigned long long blocks);

    std::filesystem::path cache_dir_;
    std::chrono::milliseconds time_limit_ = sandbox::kDefaultFrameLimit;
    std::unique_ptr<sandbox::KernelSandbox> sandbox_; // null until a kernel compiled
    std::string source_;
    KernelMode mode_ = KernelMode::Checked;
    std::vector<Pixel> fallback_[2]; // the gradient and the checkerboard, painted once per size and cell
    int fallback_width_ = 0, fallback_cell_ = 0;
    std::vector<unsigned> words_, block_sm_; // the writer record
};

} // namespace kc
