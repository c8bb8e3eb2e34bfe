#pragma once
// Box blur: the mean of the (2r+1)^2 window, clamp-to-edge. Kernels in box_blur.cu.
#include "gpu/ops/cpu_rows.h"
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

// One output pixel from any pixel source `at(x, y)` that already clamps: integer mean, rounded.
template <class At>
KC_HD Pixel box_mean(int x, int y, int r, At&& at) {
    int sb = 0, sg = 0, sr = 0;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
            const Pixel q = at(x + dx, y + dy);
            sb += q.b, sg += q.g, sr += q.r;
        }
    const int n = (2 * r + 1) * (2 * r + 1);
    return make_pixel((sr + n / 2) / n, (sg + n / 2) / n, (sb + n / 2) / n);
}

struct BoxBlurOp : CustomOp {
    static constexpr const char* name = "box_blur";
    static constexpr const char* title = "Box blur";
    static constexpr const char* formula =
        "(sum of A over the (2r+1)^2 window + n/2) / n per channel, n = (2r+1)^2, clamp-to-edge";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr const char* params = "radius";
    static constexpr int bytes_read_per_pixel = 4; // each input pixel once (the tiled kernel's ideal)

    static void cpu_paint(const OpParams& p, Pixel* out, OpOutputs*) {
        parallel_rows(p.height, [&](int y) {
            for (int x = 0; x < p.width; ++x)
                out[1LL * y * p.width + x] =
                    box_mean(x, y, p.radius, [&](int u, int v) { return source_a_clamped(u, v, p); });
        });
    }
    // The tiled kernel at r = 2 (the default) computes 4 outputs by 2 rows a thread; naive and other
    // radii one output.
    static LaunchConfig own_launch(const OpParams& p) {
        return p.variant == 1 && p.radius == 2 ? two_row_quad_tile_launch() : tile_launch();
    }
    static void cuda_launch(const CudaCustomLaunch& l);
};

} // namespace kc
