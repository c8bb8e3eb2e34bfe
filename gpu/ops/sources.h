#pragma once
// The two input images as the operations see them: the loaded images when present, else the
// gradient (A) and the checkerboard (B), so every operation shows something without files.
#include "../op_params.h"
#include "checkerboard.h"
#include "gradient.h"

namespace kc {

KC_HD Pixel source_a(int x, int y, const OpParams& p) {
    return p.src_a ? load_pixel(p.src_a + static_cast<long long>(y) * p.width + x) : GradientOp{}(x, y, p);
}
KC_HD Pixel source_b(int x, int y, const OpParams& p) {
    return p.src_b ? load_pixel(p.src_b + static_cast<long long>(y) * p.width + x) : CheckerboardOp{}(x, y, p);
}
KC_HD int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
// Clamp-to-edge: coordinates outside the image read the nearest edge pixel.
KC_HD Pixel source_a_clamped(int x, int y, const OpParams& p) {
    return source_a(clamp_int(x, 0, p.width - 1), clamp_int(y, 0, p.height - 1), p);
}

// BT.601 luma, 0.299 R + 0.587 G + 0.114 B, in exact integers, rounded half up.
KC_HD int luma601(Pixel q) { return (299 * q.r + 587 * q.g + 114 * q.b + 500) / 1000; }

} // namespace kc
