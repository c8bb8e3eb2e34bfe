#pragma once
// kcanvas bench: every op x size x backend x present path, timed with CUDA events after warm-up,
// medians, next to a device-to-device copy of the same bytes measured in the same run.
#include <optional>
#include <string>
#include <vector>

namespace kc {

struct BenchOptions {
    std::vector<std::string> ops; // empty: all
    std::vector<std::string> sizes{"800x800", "1920x1080", "3840x2160", "7680x4320"};
    std::vector<std::string> presents{"pbo", "surface", "direct"}; // "texture" measured slower than surface
    std::vector<std::string> backends{"cuda-interop", "cuda-staged"};
    std::string block = "32x8";
    std::string screen = "1920x1080"; // the framebuffer a frame draws the canvas into
    std::vector<int> pixels_per_thread{1, 4};
    std::vector<std::string> mappings{"2d"}; // of the per-pixel ops; 4 pixels per thread runs with 2d only
    int reps = 200;
    int warmup = 20;
    std::string csv = "bench.csv";
    std::string json = "bench.json";
    bool sweep_blocks = false;
    bool user_kernel_modes = false; // --user-kernel-modes: rows per starter for raw, checked, +record, +views
    bool timeline = false;          // --timeline: each per-pixel op's kernel with the SM timeline off and on
    bool force = false;             // --force: --csv and --json-out replace read-only files
    int watchdog_s = 60;            // as kcanvas --watchdog, per measured step
    std::optional<int> gpu;         // --gpu: the CUDA device (nullopt: device 0)
};

int run_bench(const BenchOptions& o); // returns the exit code

} // namespace kc
