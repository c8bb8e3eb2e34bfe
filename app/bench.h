#pragma once
// kcanvas bench: every op x size x backend x present path, timed with CUDA events after warm-up,
// medians, next to a device-to-device copy of the same bytes measured in the same run.
#include <functional>
#include <string>
#include <vector>

#include "canvas.h"
#include "frame_painter.h"
#include "paint_job.h"

namespace kc {

struct BenchOptions {
    std::vector<std::string> ops;   // empty: all
    std::vector<std::string> sizes{"800x800", "1920x1080", "3840x2160", "7680x4320"};
    std::vector<std::string> presents{"pbo", "surface"}; // "texture" measured slower than surface
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
    int watchdog_s = 60; // as kcanvas --watchdog, per measured step
};

// One block shape's kernel time, for the tuner.
struct BlockTiming {
    Dim3 block;
    double median_us = 0;
};
// Times `job` with every block shape worth trying (powers of two with 32..1024 threads, and the
// tutorial's 50x20), fastest first, with an auto grid and the job's mapping if it is 2d or
// columns (2d otherwise). Blocks the device refuses are skipped.
// `on_step` runs after each block shape (the window's watchdog counts it as progress).
std::vector<BlockTiming> sweep_blocks(FramePainter& painter, Canvas& canvas, PaintJob job, int reps,
                                      const std::function<void()>& on_step = {});

int run_bench(const BenchOptions& o); // returns the exit code

} // namespace kc
