#include "gpu/ops/launch_util.cuh"
#include "gpu/ops/sobel.h"

namespace kc {

namespace {

__global__ void sobel_naive(OpParams p, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = sobel_at(x, y, [&](int u, int v) { return luma601(source_a_clamped(u, v, p)); });
}

// The tiled kernel's staged tile: the luma of 64 + 2 columns by 16 + 2 rows, as 32-bit words in
// rows padded to 68 words, so that each thread's 6 columns are one 16-byte and one 8-byte read.
constexpr int kSobelTw = kQuadTileW + 2, kSobelTh = kTile + 2, kSobelStride = kQuadTileW + 4;
using SobelTile = int[kSobelTh][kSobelStride];

// Stages the luma of the tile whose top-left pixel is (x0, y0), each pixel's once. A block inside a
// loaded image whose rows are 16-byte aligned reads 4 pixels a load (18 loads a row, from x0 - 3);
// an edge block reads pixel by pixel, clamped. Each load also prefetches the rows below.
__device__ __forceinline__ void stage_sobel_tile(const OpParams& p, int x0, int y0, SobelTile& lum) {
    const int tid = threadIdx.y * kTile + threadIdx.x, w = p.width, h = p.height;
    const OpParams staging = staging_params(p);
    constexpr int kQuadsPerRow = (kSobelTw + 6) / 4; // 18: from x0 - 3 to x0 + 68
    if (p.src_a && w % 4 == 0 && x0 >= 3 && x0 + kSobelTw + 3 <= w && y0 >= 0 && y0 + kSobelTh <= h) {
        stage_tile<2>(
            kQuadsPerRow * kSobelTh, tid, kTile * kTile,
            [&](int i) {
                const int v = i / kQuadsPerRow, j = i - v * kQuadsPerRow;
                return load_quad_prefetching(p, x0 - 3 + 4 * j, y0 + v);
            },
            [&](int i, uint4 q) { // the 4 pixels land in columns 4j - 3 .. 4j; keep those in 0 .. 65
                const int v = i / kQuadsPerRow, j = i - v * kQuadsPerRow;
                const unsigned words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if ((j > 0 || k == 3) && (j < kQuadsPerRow - 1 || k == 0))
                        lum[v][4 * j + k - 3] = luma601(unpack(words[k]));
            });
        return;
    }
    stage_tile<(kSobelTw * kSobelTh + kTile * kTile - 1) / (kTile * kTile)>(
        kSobelTw * kSobelTh, tid, kTile * kTile,
        [&](int i) {
            const int v = i / kSobelTw;
            return source_a_clamped(x0 + i - v * kSobelTw, y0 + v, staging);
        },
        [&](int i, Pixel q) { lum[i / kSobelTw][i % kSobelTw] = luma601(q); });
}

// Tiled: 4 outputs a thread (quad_tile_launch, a block 64x16): the block stages the luma of its
// tile plus a 1-pixel halo once (stage_sobel_tile: 16-byte loads inside the image). Sobel is
// separable: per column the thread forms S = top + 2 mid + bottom and D = bottom - top once, and
// each of its 4 outputs takes gx = S(right) - S(left), gy = D(left) + 2 D(mid) + D(right) -- the
// same integers as sobel_at, with 6 columns read for 4 outputs instead of 9 pixels for each. At
// most 32 registers a thread (__launch_bounds__), as the box blur's.
__global__ void __launch_bounds__(kTile* kTile, KC_RESIDENT_BLOCKS(kTile* kTile, 8))
    sobel_quad(OpParams p, Pixel* out) {
    __shared__ __align__(16) SobelTile lum;
    stage_sobel_tile(p, blockIdx.x * kQuadTileW - 1, blockIdx.y * kTile - 1, lum);
    __syncthreads();
    const int tx = threadIdx.x, ty = threadIdx.y, c0 = 4 * tx; // the thread's columns: c0 .. c0 + 5
    int l[3][6];
#pragma unroll
    for (int dy = 0; dy < 3; ++dy) {
        const int4 a = *reinterpret_cast<const int4*>(&lum[ty + dy][c0]);
        const int2 b = *reinterpret_cast<const int2*>(&lum[ty + dy][c0 + 4]);
        l[dy][0] = a.x, l[dy][1] = a.y, l[dy][2] = a.z, l[dy][3] = a.w, l[dy][4] = b.x, l[dy][5] = b.y;
    }
    int s[6], d[6];
#pragma unroll
    for (int k = 0; k < 6; ++k) s[k] = l[0][k] + 2 * l[1][k] + l[2][k], d[k] = l[2][k] - l[0][k];
    Pixel q[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) q[k] = sobel_magnitude(s[k + 2] - s[k], d[k] + 2 * d[k + 1] + d[k + 2]);
    const int x = blockIdx.x * kQuadTileW + c0, y = blockIdx.y * kTile + ty;
    if (y < p.height) store_four(out, x, y, p.width, q);
}

} // namespace

void SobelOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const OwnDims d = own_dims(own_launch(p), p);
    if (p.variant == 0)
        sobel_naive<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    else
        sobel_quad<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    check_launch(l.stream);
}

} // namespace kc
