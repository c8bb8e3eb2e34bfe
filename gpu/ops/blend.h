#pragma once
#include "../op_params.h"
#include "checkerboard.h"
#include "gradient.h"

namespace kc {

// The tutorial's merge: weight*A + (1-weight)*B, rounded, with A the gradient and B the
// checkerboard (weight 0.75 is the tutorial's 3/4 - 1/4 merge).
struct BlendOp {
    static constexpr const char* name = "blend";
    static constexpr const char* title = "Blend gradient and checkerboard";
    static constexpr const char* formula = "round(w*A + (1-w)*B),  A = gradient, B = checkerboard";
    static constexpr int bytes_read_per_pixel = 0;

    KC_HD static uint8_t mix(float w, uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(w * a + (1.0f - w) * b + 0.5f);
    }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const Pixel a = GradientOp{}(x, y, p);
        const Pixel b = CheckerboardOp{}(x, y, p);
        return Pixel{mix(p.weight, a.b, b.b), mix(p.weight, a.g, b.g), mix(p.weight, a.r, b.r), 255};
    }
};

} // namespace kc
