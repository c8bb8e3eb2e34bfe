#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

struct InvertOp : PerPixelOp {
    static constexpr const char* name = "invert";
    static constexpr const char* title = "Invert";
    static constexpr const char* formula = "255 - v for R, G, B of A; alpha 255";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr int bytes_read_per_pixel = 4;

    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const Pixel a = source_a(x, y, p);
        return make_pixel(255 - a.r, 255 - a.g, 255 - a.b);
    }
};

} // namespace kc
