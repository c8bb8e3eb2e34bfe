#pragma once
#include "gpu/ops/op_base.h"

namespace kc {

// The PyCUDA tutorial's drawGradient, pixel-exact to its cv2.imwrite output at 800x800 (integer
// division as in the tutorial); other sizes scale by width and height.
struct GradientOp : PerPixelOp {
    static constexpr const char* name = "gradient";
    static constexpr const char* title = "Gradient";
    static constexpr const char* formula =
        "B = 255 - 255*y/H,  G = 255 - 255*x/W,  R = 128 - 128*y/H  (integer division)";
    static constexpr unsigned inputs = 0;
    static constexpr int bytes_read_per_pixel = 0;

    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        // Exactly 128 - 128*y/H etc. in integers; FastDiv avoids the slow hardware-less division.
        return make_pixel(128 - static_cast<int>(p.by_height(128 * y)), 255 - static_cast<int>(p.by_width(255 * x)),
                          255 - static_cast<int>(p.by_height(255 * y)));
    }
};

} // namespace kc
