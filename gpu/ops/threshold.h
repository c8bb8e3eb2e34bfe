#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

struct ThresholdOp : PerPixelOp {
    static constexpr const char* name = "threshold";
    static constexpr const char* title = "Threshold";
    static constexpr const char* formula = "white if Y(A) >= level else black  (Y: BT.601 luma as in grayscale)";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr const char* params = "level";
    static constexpr int bytes_read_per_pixel = 4;

    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const int v = luma601(source_a(x, y, p)) >= p.level ? 255 : 0;
        return make_pixel(v, v, v);
    }
};

} // namespace kc
