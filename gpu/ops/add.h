#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

struct AddOp : PerPixelOp {
    static constexpr const char* name = "add";
    static constexpr const char* title = "Add A + B (saturating)";
    static constexpr const char* formula = "min(255, A + B) per channel";
    static constexpr unsigned inputs = kUsesImageA | kUsesImageB;
    static constexpr const char* params = "cell";
    static constexpr int bytes_read_per_pixel = 8;

    KC_HD static int sat(int v) { return v > 255 ? 255 : v; }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const Pixel a = source_a(x, y, p), b = source_b(x, y, p);
        return make_pixel(sat(a.r + b.r), sat(a.g + b.g), sat(a.b + b.b));
    }
};

} // namespace kc
