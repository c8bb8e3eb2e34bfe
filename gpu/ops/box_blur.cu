#include "gpu/ops/box_blur.h"
#include "gpu/ops/launch_util.cuh"

namespace kc {

namespace {

// Naive: every thread reads its whole (2r+1)^2 window from global memory.
__global__ void box_blur_naive(OpParams p, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = box_mean(x, y, p.radius, [&](int u, int v) { return source_a_clamped(u, v, p); });
}

// B, G and R in 21-bit fields of one 64-bit word: a window of up to 33x33 pixels sums to at most
// 277,695 per channel (< 2^21), so one 64-bit add sums all three channels and no field carries.
__device__ __forceinline__ unsigned long long pack21(Pixel q) {
    return q.b | static_cast<unsigned long long>(q.g) << 21 | static_cast<unsigned long long>(q.r) << 42;
}
__device__ __forceinline__ int field21(unsigned long long s, int k) {
    return static_cast<int>((s >> (21 * k)) & 0x1FFFFF);
}

// Tiled at any radius (the default, 2, has its own kernel below): the block stages its 16x16 tile
// plus an r-pixel halo (clamped at the image edges) in shared memory once, sums each staged row over
// 2r+1 pixels, then each thread sums 2r+1 of those row sums: 4r+2 adds a pixel instead of (2r+1)^2,
// and the same integer sums as box_mean.
__global__ void box_blur_tiled(OpParams p, FastDiv by_n, FastDiv by_tw, Pixel* out) {
    extern __shared__ unsigned long long staged[];
    const int r = p.radius, tw = kTile + 2 * r;
    unsigned long long* tile = staged;           // tw x tw packed pixels
    unsigned long long* rows = staged + tw * tw; // tw x kTile: sums along x
    const int x0 = blockIdx.x * kTile - r, y0 = blockIdx.y * kTile - r;
    const int tx = threadIdx.x, ty = threadIdx.y;
    constexpr int kMaxSide = kTile + 2 * kMaxBlurRadius;
    const OpParams staging = staging_params(p);
    stage_tile<(kMaxSide * kMaxSide + kTile * kTile - 1) / (kTile * kTile)>(
        tw * tw, ty * kTile + tx, kTile * kTile,
        [&](int i) {
            const int v = static_cast<int>(by_tw(static_cast<unsigned>(i)));
            return source_a_clamped(x0 + i - v * tw, y0 + v, staging);
        },
        [&](int i, Pixel q) { tile[i] = pack21(q); });
    __syncthreads();
    for (int v = ty; v < tw; v += kTile) {
        unsigned long long s = 0;
#pragma unroll
        for (int dx = 0; dx <= 2 * r; ++dx) s += tile[v * tw + tx + dx];
        rows[v * kTile + tx] = s;
    }
    __syncthreads();
    const int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
    if (x >= p.width || y >= p.height) return;
    unsigned long long s = 0;
#pragma unroll
    for (int dy = 0; dy <= 2 * r; ++dy) s += rows[(ty + dy) * kTile + tx];
    const unsigned n = (2 * r + 1) * (2 * r + 1);
    auto mean = [&](int k) {
        const unsigned sum = field21(s, k) + n / 2;
        return static_cast<int>(by_n(sum));
    };
    store_pixel(out + y * p.width + x, make_pixel(mean(2), mean(1), mean(0)));
}

// The r = 2 quad kernel's staged tile: 64 + 4 columns by 16 + 4 rows, each pixel as two 32-bit words
// of two 16-bit fields, (B, R) and (G, A): one integer add then sums two channels (a 5x5 window
// sums to at most 25 * 255 = 6375 < 2^16, so no field carries into the next).
constexpr int kBlurR = 2, kBlurTw = kQuadTileW + 2 * kBlurR, kBlurTh = kTile + 2 * kBlurR;
struct BlurTile {
    unsigned br[kBlurTh][kBlurTw], ga[kBlurTh][kBlurTw];
    __device__ void put(int v, int u, unsigned word) {
        br[v][u] = word & 0x00FF00FFu, ga[v][u] = (word >> 8) & 0x00FF00FFu;
    }
};

// Stages the tile whose top-left pixel is (x0, y0). A block inside a loaded image whose rows are
// 16-byte aligned reads 4 pixels a load (18 loads a row, from x0 - 2; 252 -> 169 us at 7680x4320
// against one pixel a load); an edge block reads pixel by pixel, clamped. Each load also prefetches
// the rows below (staging_params), which the blocks of those rows will stage.
template <int kThreads>
__device__ __forceinline__ void stage_blur_tile(const OpParams& p, int x0, int y0, BlurTile& t) {
    const int tid = threadIdx.y * kTile + threadIdx.x, w = p.width, h = p.height;
    const OpParams staging = staging_params(p);
    constexpr int kQuadsPerRow = (kBlurTw + 4) / 4; // 18: from x0 - 2 to x0 + 69
    if (p.src_a && w % 4 == 0 && x0 >= 2 && x0 + kBlurTw + 2 <= w && y0 >= 0 && y0 + kBlurTh <= h) {
        stage_tile<(kQuadsPerRow * kBlurTh + kThreads - 1) / kThreads>(
            kQuadsPerRow * kBlurTh, tid, kThreads,
            [&](int i) {
                const int v = i / kQuadsPerRow, j = i - v * kQuadsPerRow;
                return load_quad_prefetching(p, x0 - 2 + 4 * j, y0 + v);
            },
            [&](int i, uint4 q) { // the 4 pixels land in columns 4j - 2 .. 4j + 1; keep those in 0 .. 67
                const int v = i / kQuadsPerRow, j = i - v * kQuadsPerRow;
                if (j > 0) t.put(v, 4 * j - 2, q.x), t.put(v, 4 * j - 1, q.y);
                if (j < kQuadsPerRow - 1) t.put(v, 4 * j, q.z), t.put(v, 4 * j + 1, q.w);
            });
        return;
    }
    stage_tile<(kBlurTw * kBlurTh + kThreads - 1) / kThreads>(
        kBlurTw * kBlurTh, tid, kThreads,
        [&](int i) {
            const int v = i / kBlurTw;
            return source_a_clamped(x0 + i - v * kBlurTw, y0 + v, staging);
        },
        [&](int i, Pixel q) { t.put(i / kBlurTw, i % kBlurTw, pack(q)); });
}

// Row v of the staged tile, columns c0 .. c0 + 7, added to (or, kAdd false, taken from) a thread's
// column sums: four 16-byte reads.
template <bool kAdd>
__device__ __forceinline__ void add_tile_row(const BlurTile& t, int v, int c0, unsigned (&br)[8], unsigned (&ga)[8]) {
    const uint4 b0 = *reinterpret_cast<const uint4*>(&t.br[v][c0]),
                b1 = *reinterpret_cast<const uint4*>(&t.br[v][c0 + 4]);
    const uint4 g0 = *reinterpret_cast<const uint4*>(&t.ga[v][c0]),
                g1 = *reinterpret_cast<const uint4*>(&t.ga[v][c0 + 4]);
    const unsigned bs[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
    const unsigned gs[8] = {g0.x, g0.y, g0.z, g0.w, g1.x, g1.y, g1.z, g1.w};
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        if constexpr (kAdd)
            br[k] += bs[k], ga[k] += gs[k];
        else
            br[k] -= bs[k], ga[k] -= gs[k];
    }
}

// The 4 outputs (x..x+3, y) from 8 column sums of 5 rows: a 5-column sum slid along x, one add and
// one subtract an output instead of 24 adds; (sum + n/2) / n with n = 25, as box_mean rounds.
__device__ __forceinline__ void store_row_of_four(const unsigned (&br)[8], const unsigned (&ga)[8], Pixel* out, int x,
                                                  int y, const OpParams& p) {
    unsigned s_br = br[0] + br[1] + br[2] + br[3] + br[4], s_ga = ga[0] + ga[1] + ga[2] + ga[3] + ga[4];
    Pixel q[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const unsigned b = ((s_br & 0xFFFFu) + 12) / 25, r = ((s_br >> 16) + 12) / 25, g = ((s_ga & 0xFFFFu) + 12) / 25;
        q[k] = make_pixel(static_cast<int>(r), static_cast<int>(g), static_cast<int>(b));
        if (k < 3) s_br += br[k + 5] - br[k], s_ga += ga[k + 5] - ga[k];
    }
    if (y < p.height) store_four(out, x, y, p.width, q);
}

// Tiled at r = 2 (the default radius): 16x8 threads, each computing 4 neighbouring outputs in x on
// 2 rows, a block 64x16 (two_row_quad_tile_launch). The tricks, each for fewer instructions a pixel:
// - the staged tile packs two channels in a word (BlurTile) and is read 16 bytes at a time;
// - a thread's four outputs share 8 columns of their windows: it sums each column over 5 rows
//   once, and slides a 5-column sum along x (store_row_of_four);
// - its second row's column sums are the first's less the row above plus the row below: 6 staged
//   rows read for 8 outputs (117 us at 7680x4320, against 142 us for 4 outputs a thread of 16x16);
// - blocks inside the image stage with 16-byte loads and no clamping (stage_blur_tile);
// - 8 blocks of 128 an SM fit its 64 registers a thread without spilling (__launch_bounds__);
//   fewer registers for more blocks spill, and ran slower (results/h200-2026-12-01-final/
//   blur-launch-bounds.txt).
__global__ void __launch_bounds__(kTile* kTile / 2, KC_RESIDENT_BLOCKS(kTile* kTile / 2, 8))
    box_blur_quad_r2(OpParams p, Pixel* out) {
    __shared__ __align__(16) BlurTile t;
    stage_blur_tile<kTile * kTile / 2>(p, blockIdx.x * kQuadTileW - kBlurR, blockIdx.y * kTile - kBlurR, t);
    __syncthreads();
    const int r0 = 2 * threadIdx.y, c0 = 4 * threadIdx.x; // the thread's rows r0, r0 + 1; columns c0 .. c0 + 7
    const int x = blockIdx.x * kQuadTileW + c0, y = blockIdx.y * kTile + r0;
    unsigned br[8] = {}, ga[8] = {};
#pragma unroll
    for (int dy = 0; dy <= 2 * kBlurR; ++dy) add_tile_row<true>(t, r0 + dy, c0, br, ga);
    store_row_of_four(br, ga, out, x, y, p);
    add_tile_row<true>(t, r0 + 2 * kBlurR + 1, c0, br, ga);
    add_tile_row<false>(t, r0, c0, br, ga);
    store_row_of_four(br, ga, out, x, y + 1, p);
}

} // namespace

void BoxBlurOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const OwnDims d = own_dims(own_launch(p), p); // the quad tile's launch for the tiled kernel at r = 2
    if (p.variant == 0) {
        box_blur_naive<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    } else if (p.radius == 2) {
        box_blur_quad_r2<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    } else {
        const int tw = kTile + 2 * p.radius; // radius <= 16: at most (48*48 + 48*16) * 8 = 24 KiB
        const int n = (2 * p.radius + 1) * (2 * p.radius + 1);
        const std::size_t shared = (tw * tw + tw * kTile) * sizeof(unsigned long long);
        const FastDiv by_n(static_cast<std::uint32_t>(n)), by_tw(static_cast<std::uint32_t>(tw));
        box_blur_tiled<<<d.grid, d.block, shared, l.stream>>>(p, by_n, by_tw, l.out);
    }
    check_launch(l.stream);
}

} // namespace kc
