#pragma once
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

// The tutorial's merge: weight*A + (1-weight)*B, rounded. A and B are the loaded images; without
// them, the gradient and the checkerboard (weight 0.75 is the tutorial's 3/4 - 1/4 merge). The
// tutorial computes it in integers, a*3/4 + b/4, which truncates each term: up to 2 levels below
// the rounded mix. --integer computes that instead (weights in 256ths; 0.75 is exactly 192/256).
struct BlendOp : PerPixelOp {
    static constexpr const char* name = "blend";
    static constexpr const char* title = "Blend A and B";
    static constexpr const char* formula =
        "round(w*A + (1-w)*B) per channel, or with integer: A*W/256 + B*(256-W)/256, W = round(256w);  A = image "
        "1 (else gradient), B = image 2 (else checkerboard)";
    static constexpr unsigned inputs = kUsesImageA | kUsesImageB;
    static constexpr const char* params = "weight integer cell";
    static constexpr int bytes_read_per_pixel = 8;

    KC_HD static uint8_t mix(float w, uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(w * a + (1.0f - w) * b + 0.5f);
    }
    // Each term truncated, as C's integer a*3/4 + b/4 does: w256 = 192 gives exactly that.
    KC_HD static uint8_t mix_integer(int w256, uint8_t a, uint8_t b) {
        return static_cast<uint8_t>(a * w256 / 256 + b * (256 - w256) / 256);
    }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        const Pixel a = source_a(x, y, p);
        const Pixel b = source_b(x, y, p);
        if (p.blend_integer) {
            const int w = static_cast<int>(p.weight * 256.0f + 0.5f);
            return Pixel{mix_integer(w, a.b, b.b), mix_integer(w, a.g, b.g), mix_integer(w, a.r, b.r), 255};
        }
        return Pixel{mix(p.weight, a.b, b.b), mix(p.weight, a.g, b.g), mix(p.weight, a.r, b.r), 255};
    }
};

} // namespace kc
