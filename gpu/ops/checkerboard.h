#pragma once
#include "gpu/ops/op_base.h"

namespace kc {

// The tutorial's drawChess: a cell is white when (x/cell + y/cell) is odd, black otherwise.
struct CheckerboardOp : PerPixelOp {
    static constexpr const char* name = "checkerboard";
    static constexpr const char* title = "Checkerboard";
    static constexpr const char* formula = "white if (x/cell + y/cell) is odd, else black";
    static constexpr unsigned inputs = 0;
    static constexpr const char* params = "cell";
    static constexpr int bytes_read_per_pixel = 0;

    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const int v = ((p.by_cell(x) + p.by_cell(y)) & 1) ? 255 : 0; // (x/cell + y/cell) odd
        return make_pixel(v, v, v);
    }
};

} // namespace kc
