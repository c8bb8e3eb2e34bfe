#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

// The tutorial's merge: weight*A + (1-weight)*B, rounded. A and B are the loaded images; without
// them, the gradient and the checkerboard (weight 0.75 is the tutorial's 3/4 - 1/4 merge).
struct BlendOp : PerPixelOp {
    static constexpr const char* name = "blend";
    static constexpr const char* title = "Blend A and B";
    static constexpr const char* formula =
        "round(w*A + (1-w)*B) per channel;  A = image 1 (else gradient), B = image 2 (else checkerboard)";
    static constexpr unsigned inputs = kUsesImageA | kUsesImageB;
    static constexpr const char* params = "weight cell";
    static constexpr int bytes_read_per_pixel = 8;

    KC_HD static uint8_t mix(float w, uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(w * a + (1.0f - w) * b + 0.5f);
    }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const Pixel a = source_a(x, y, p);
        const Pixel b = source_b(x, y, p);
        return Pixel{mix(p.weight, a.b, b.b), mix(p.weight, a.g, b.g), mix(p.weight, a.r, b.r), 255};
    }
};

} // namespace kc
