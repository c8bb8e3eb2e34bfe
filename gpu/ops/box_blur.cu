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

// Tiled: the block stages its 16x16 tile plus an r-pixel halo (clamped at the image edges) in
// shared memory once, sums each staged row over 2r+1 pixels, then each thread sums 2r+1 of those
// row sums: 4r+2 adds a pixel instead of (2r+1)^2, and the same integer sums as box_mean.
// kR: the radius when known at compile time (the default, 2: loops unroll and divisions become
// multiplies), -1 for any radius read from p.
template <int kR>
__global__ void box_blur_tiled(OpParams p, FastDiv by_n, FastDiv by_tw, Pixel* out) {
    extern __shared__ unsigned long long staged[];
    const int r = kR >= 0 ? kR : p.radius, tw = kTile + 2 * r;
    unsigned long long* tile = staged;           // tw x tw packed pixels
    unsigned long long* rows = staged + tw * tw; // tw x kTile: sums along x
    const int x0 = blockIdx.x * kTile - r, y0 = blockIdx.y * kTile - r;
    const int tx = threadIdx.x, ty = threadIdx.y;
    constexpr int kMaxSide = kTile + 2 * (kR >= 0 ? kR : kMaxBlurRadius);
    const OpParams staging = staging_params(p);
    stage_tile<(kMaxSide * kMaxSide + kTile * kTile - 1) / (kTile * kTile)>(
        tw * tw, ty * kTile + tx, kTile * kTile,
        [&](int i) {
            const int v = kR >= 0 ? i / tw : static_cast<int>(by_tw(static_cast<unsigned>(i)));
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
        return static_cast<int>(kR >= 0 ? sum / n : by_n(sum));
    };
    store_pixel(out + y * p.width + x, make_pixel(mean(2), mean(1), mean(0)));
}

} // namespace

void BoxBlurOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const OwnDims d = own_dims(own_launch(p), p);
    if (p.variant == 0) {
        box_blur_naive<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    } else {
        const int tw = kTile + 2 * p.radius; // radius <= 16: at most (48*48 + 48*16) * 8 = 24 KiB
        const int n = (2 * p.radius + 1) * (2 * p.radius + 1);
        const std::size_t shared = (tw * tw + tw * kTile) * sizeof(unsigned long long);
        const FastDiv by_n(static_cast<std::uint32_t>(n)), by_tw(static_cast<std::uint32_t>(tw));
        if (p.radius == 2)
            box_blur_tiled<2><<<d.grid, d.block, shared, l.stream>>>(p, by_n, by_tw, l.out);
        else
            box_blur_tiled<-1><<<d.grid, d.block, shared, l.stream>>>(p, by_n, by_tw, l.out);
    }
    check_launch(l.stream);
}

} // namespace kc
