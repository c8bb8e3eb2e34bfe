#pragma once
// Sobel edge magnitude on the BT.601 luma of A, clamp-to-edge. Kernels in sobel.cu.
#include <cmath>

#include "gpu/ops/cpu_rows.h"
#include "gpu/ops/op_base.h"
#include "gpu/ops/sources.h"

namespace kc {

// The output pixel of the gradient (gx, gy): min(255, round(|g|)), gray.
KC_HD Pixel sobel_magnitude(int gx, int gy) {
    // gx^2 + gy^2 < 2^24 is exact in float and sqrtf is correctly rounded on host and device.
    const int m = static_cast<int>(sqrtf(static_cast<float>(gx * gx + gy * gy)) + 0.5f);
    const int v = m > 255 ? 255 : m;
    return make_pixel(v, v, v);
}

// `lum(x, y)` returns the luma at clamped coordinates.
template <class Lum>
KC_HD Pixel sobel_at(int x, int y, Lum&& lum) {
    const int a = lum(x - 1, y - 1), b = lum(x, y - 1), c = lum(x + 1, y - 1);
    const int d = lum(x - 1, y), f = lum(x + 1, y);
    const int g = lum(x - 1, y + 1), h = lum(x, y + 1), i = lum(x + 1, y + 1);
    return sobel_magnitude((c + 2 * f + i) - (a + 2 * d + g), (g + 2 * h + i) - (a + 2 * b + c));
}

struct SobelOp : CustomOp {
    static constexpr const char* name = "sobel";
    static constexpr const char* title = "Sobel edges";
    static constexpr const char* formula = "Y = luma(A); Gx = [-1 0 1; -2 0 2; -1 0 1] * Y, Gy = its transpose; "
                                           "min(255, round(sqrt(Gx^2 + Gy^2))), clamp-to-edge";
    static constexpr unsigned inputs = kUsesImageA;
    static constexpr int bytes_read_per_pixel = 4;

    static void cpu_paint(const OpParams& p, Pixel* out, OpOutputs*) {
        auto lum = [&](int u, int v) { return luma601(source_a_clamped(u, v, p)); };
        parallel_rows(p.height, [&](int y) {
            for (int x = 0; x < p.width; ++x) out[1LL * y * p.width + x] = sobel_at(x, y, lum);
        });
    }
    // The tiled kernel computes 4 outputs a thread, the naive one one.
    static LaunchConfig own_launch(const OpParams& p) { return p.variant == 1 ? quad_tile_launch() : tile_launch(); }
    static void cuda_launch(const CudaCustomLaunch& l);
};

} // namespace kc
