#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

struct GrayscaleOp : PerPixelOp {
    static constexpr const char* name = "grayscale";
    static constexpr const char* title = "Grayscale (BT.601)";
    static constexpr const char* formula = "Y = (299 R + 587 G + 114 B + 500) / 1000 (integer), written to R, G, B";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr int bytes_read_per_pixel = 4;

    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const int v = luma601(source_a(x, y, p));
        return make_pixel(v, v, v);
    }
};

} // namespace kc
