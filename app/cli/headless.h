#pragma once
// kcanvas --headless, and what its A/B run (ab_headless.h) shares with it.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "app/cli/options.h"
#include "gpu/timing.h"
#include "gpu/user_kernel.h"
#include "render/frame_painter.h"
#include "render/io/source_images.h"

namespace kc {
// kcanvas --headless: renders o.frames frames without a window, prints timings, writes --out.
// With an A/B split (--ab, or a preset holding one) it runs run_ab_headless instead.
// Returns the process exit code.
int run_headless(const Options& o);

// {"samples", "last_us", "median_us", "mean_us", "min_us"}.
nlohmann::json stats_json(const TimingStats& s);

// The user's kernel: --kernel's file, else the default starter (the gradient).
struct KernelSource {
    std::string source, name;
};
KernelSource kernel_source(const Options& o);

// What compiling the user's kernel said; the exit code when it did not compile.
std::optional<int> compiled(const Options& o, const KernelSource& k, const KernelCompile& c);

// The input images, and the canvas size from image A unless --size was given. A bad file is bad
// input (exit 2) before any device is touched: returns the exit code then.
std::optional<int> load_inputs(Options& o, SourceImages& sources);

// The CUDA device the run asks for (-1: none), or the exit code when the user's kernel cannot
// run here (it needs a CUDA GPU and NVRTC).
struct DeviceChoice {
    int cuda_device = -1;
    std::optional<int> exit;
};
DeviceChoice choose_device(const Options& o, bool user_code);

// "NVIDIA H200 (CUDA device 1)": on a machine of several alike GPUs the name alone does not say which.
std::string device_with_index(const FramePainter& painter);
} // namespace kc
