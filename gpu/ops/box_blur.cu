#include "box_blur.h"
#include "launch_util.cuh"

namespace kc {

namespace {

// Naive: every thread reads its whole (2r+1)^2 window from global memory.
__global__ void box_blur_naive(OpParams p, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = box_mean(x, y, p.radius, [&](int u, int v) { return source_a_clamped(u, v, p); });
}

// Tiled: the block stages its 16x16 tile plus an r-pixel halo (clamped at the image edges) in
// shared memory once, then every thread reads its window from there.
__global__ void box_blur_tiled(OpParams p, Pixel* out) {
    extern __shared__ Pixel tile[];
    const int r = p.radius, tw = kTile + 2 * r;
    const int x0 = blockIdx.x * kTile - r, y0 = blockIdx.y * kTile - r;
    const int tid = threadIdx.y * kTile + threadIdx.x;
    for (int i = tid; i < tw * tw; i += kTile * kTile) tile[i] = source_a_clamped(x0 + i % tw, y0 + i / tw, p);
    __syncthreads();
    const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = box_mean(x, y, r, [&](int u, int v) { return tile[(v - y0) * tw + (u - x0)]; });
}

} // namespace

void BoxBlurOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const OwnDims d = own_dims(own_launch(p), p);
    if (p.variant == 0) {
        box_blur_naive<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    } else {
        const int tw = kTile + 2 * p.radius; // radius <= 16: at most 48*48*4 = 9 KiB
        box_blur_tiled<<<d.grid, d.block, tw * tw * sizeof(Pixel), l.stream>>>(p, l.out);
    }
    check_launch(l.stream);
}

} // namespace kc
