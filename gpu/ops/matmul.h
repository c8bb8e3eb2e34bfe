#pragma once
// C = A*B for N x N floats, shown as a heatmap of C. Kernels in matmul.cu, the lesson's three steps:
// variant 0 one thread per element reading A and B from global memory, variant 1 16x16 tiles
// staged in shared memory, variant 2 register-blocked (each thread an 8x8 tile of C in registers).
#include <cmath>
#include <vector>

#include "gpu/ops/cpu_rows.h"
#include "gpu/ops/op_base.h"
#include "gpu/thread_body.h"

namespace kc {

constexpr int kMatmulTile = 16;

// The inputs: deterministic values in [-1, 1] from a hash of (row, column, which matrix).
KC_HD float matmul_input(int row, int col, int n, int which) {
    const unsigned h = hash_u32(static_cast<unsigned>(row) * static_cast<unsigned>(n) + static_cast<unsigned>(col) +
                                (which ? 0x9e3779b9U : 0U));
    return static_cast<float>(h & 0xFFFF) / 32767.5f - 1.0f;
}

// Diverging colours: blue (negative) - white (0) - red (positive), |c| >= 2*sqrt(N/3) saturates.
KC_HD Pixel heat_colour(float c, int n) {
    float t = c / (2.0f * sqrtf(n / 3.0f));
    t = t < -1.0f ? -1.0f : (t > 1.0f ? 1.0f : t);
    const int k = static_cast<int>((1.0f - (t < 0 ? -t : t)) * 255.0f + 0.5f);
    return t >= 0 ? make_pixel(255, k, k) : make_pixel(k, k, 255);
}

// The canvas pixel (x, y) shows C[y*N/H][x*N/W].
KC_HD long long heat_index(int x, int y, int w, int h, int n) {
    return 1LL * (1LL * y * n / h) * n + (1LL * x * n / w);
}

struct MatmulOp : CustomOp {
    static constexpr const char* name = "matmul";
    static constexpr const char* title = "Matrix multiply (heatmap of C)";
    static constexpr const char* formula =
        "C[i][j] = sum_k A[i][k]*B[k][j], N x N floats; pixel (x, y) shows C[y*N/H][x*N/W] blue-white-red";
    static constexpr unsigned inputs = 0;
    static constexpr const char* params = "matmul-n";
    static constexpr int bytes_read_per_pixel = 0; // see GFLOP/s instead
    static constexpr int variants = 3;
    static constexpr VariantNames variant_names{"naive (global memory)", "tiled 16x16 (shared memory)",
                                                "register-blocked 128x128 (8x8 a thread)"};
    static double flops(const OpParams& p) { return 2.0 * p.matmul_n * p.matmul_n * p.matmul_n; }
    // own_launch (CustomOp's 16x16 tiles) is the heatmap's, which writes the canvas.
    static constexpr const char* launch_note =
        "Before the heatmap, the multiply. naive and tiled: block 16x16, grid N/16 x N/16, one thread per "
        "element of C (j = blockIdx.x*16 + threadIdx.x, i = blockIdx.y*16 + threadIdx.y). register-blocked: "
        "block 256x1, grid N/128 x N/128 (rounded up), each block a 128x128 tile of C, each thread 8x8 of it.";

    static void cpu_paint(const OpParams& p, Pixel* out, OpOutputs* outputs) {
        const int n = p.matmul_n;
        std::vector<float> a(1ULL * n * n), b(1ULL * n * n), c(1ULL * n * n, 0.0f);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                a[1ULL * i * n + j] = matmul_input(i, j, n, 0), b[1ULL * i * n + j] = matmul_input(i, j, n, 1);
        parallel_rows(n, [&](int i) { // i-k-j order: rows of B and C stream through the cache
            for (int k = 0; k < n; ++k) {
                const float aik = a[1ULL * i * n + k];
                for (int j = 0; j < n; ++j) c[1ULL * i * n + j] += aik * b[1ULL * k * n + j];
            }
        });
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
                out[1LL * y * p.width + x] = heat_colour(c[heat_index(x, y, p.width, p.height, n)], n);
        if (outputs) outputs->matmul_c = std::move(c);
    }
    static void cuda_launch(const CudaCustomLaunch& l);
};

} // namespace kc
