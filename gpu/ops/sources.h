#pragma once
// The two input images as the operations see them: the loaded images when present, else the
// gradient (A) and the checkerboard (B), so every operation shows something without files.
#include "gpu/op_params.h"
#include "gpu/ops/checkerboard.h"
#include "gpu/ops/gradient.h"

namespace kc {

// With one pixel per thread a warp has one 128-byte load in flight: too few bytes to cover DRAM's
// latency, and a kernel that waits on them reaches ~60 % of a copy. So each read can also ask L2
// for the pixel p.prefetch_rows rows below, which blocks launched a few microseconds later will
// load: DRAM then streams ahead of the loads and those hit L2 (80-90 % of a copy).
KC_HD Pixel load_image(const Pixel* img, int x, int y, const OpParams& p) {
    // Canvases hold at most 2^28 pixels: a 32-bit index (one multiply-add) is exact.
    const unsigned i = static_cast<unsigned>(y) * p.width + x;
    if (p.prefetch_rows > 0 && y + p.prefetch_rows < p.height) prefetch_l2(img + i + p.prefetch_rows * p.width);
    return load_pixel(img + i);
}
KC_HD Pixel source_a(int x, int y, const OpParams& p) {
    return p.src_a ? load_image(p.src_a, x, y, p) : GradientOp{}(x, y, p);
}
KC_HD Pixel source_b(int x, int y, const OpParams& p) {
    return p.src_b ? load_image(p.src_b, x, y, p) : CheckerboardOp{}(x, y, p);
}
KC_HD int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
// Clamp-to-edge: coordinates outside the image read the nearest edge pixel.
KC_HD Pixel source_a_clamped(int x, int y, const OpParams& p) {
    return source_a(clamp_int(x, 0, p.width - 1), clamp_int(y, 0, p.height - 1), p);
}

// BT.601 luma, 0.299 R + 0.587 G + 0.114 B, in exact integers, rounded half up.
KC_HD int luma601(Pixel q) { return (299 * q.r + 587 * q.g + 114 * q.b + 500) / 1000; }

} // namespace kc
