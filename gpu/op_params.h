#pragma once
// The per-frame inputs every operation reads. A plain struct passed by value to kernels.
#include "gpu/fast_div.h"
#include "gpu/pixel.h"

namespace kc {

constexpr int kMaxBlurRadius = 16; // the tiled blur's shared tile is (16 + 2r)^2 pixels
// One pixel a thread keeps one 128-byte load a warp in flight; prefetching the pixel this many rows
// below (2 MB ahead on an 8K canvas, well inside L2) lets DRAM stream ahead of the loads.
constexpr int kPrefetchRows = 64;

struct OpParams {
    int width = 800;
    int height = 800;

    // Input images, width*height pixels each, already fitted to the canvas, in the memory the
    // backend paints (device memory for the CUDA backends, host memory for cpu). nullptr: none
    // loaded, and A falls back to the gradient, B to the checkerboard.
    const Pixel* src_a = nullptr;
    const Pixel* src_b = nullptr;

    // The ops' parameters (weight, cell, level, radius, variant, iterations, ...): one KC_PARAM line
    // each in ops/op_list.h, which also gives their ranges, labels and flags (param_limits.h).
#define KC_PARAM(type, field, default_value, ...) type field = default_value;
#include "gpu/ops/op_list.h"
#undef KC_PARAM

    float seconds = 0.0f; // time since the start, for animated ops (the user kernel's t)

    // Rows below its own pixel that an image read asks L2 to fetch ahead (0: none; see
    // sources.h). paint_thread sets it for one pixel a thread, the only case it pays off in.
    int prefetch_rows = 0;

    // Divisions by the canvas size and cell without integer division; set by prepare_divisors()
    // just before a launch (the backends do it; code calling an op's functor directly must too),
    // valid for numerators below 2^31.
    FastDiv by_width{}, by_height{}, by_cell{};
};

inline void prepare_divisors(OpParams& p) {
    p.by_width = FastDiv(static_cast<std::uint32_t>(p.width));
    p.by_height = FastDiv(static_cast<std::uint32_t>(p.height));
    p.by_cell = FastDiv(static_cast<std::uint32_t>(p.cell));
}

} // namespace kc
