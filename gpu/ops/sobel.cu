#include "gpu/ops/launch_util.cuh"
#include "gpu/ops/sobel.h"

namespace kc {

namespace {

__global__ void sobel_naive(OpParams p, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = sobel_at(x, y, [&](int u, int v) { return luma601(source_a_clamped(u, v, p)); });
}

// Tiled: the block computes the luma of its tile plus a 1-pixel halo once, into shared memory.
__global__ void sobel_tiled(OpParams p, Pixel* out) {
    constexpr int tw = kTile + 2;
    __shared__ unsigned char lum[tw * tw];
    const int x0 = blockIdx.x * kTile - 1, y0 = blockIdx.y * kTile - 1;
    const int tid = threadIdx.y * kTile + threadIdx.x;
    const OpParams staging = staging_params(p);
    stage_tile<(tw * tw + kTile * kTile - 1) / (kTile * kTile)>(
        tw * tw, tid, kTile * kTile, [&](int i) { return source_a_clamped(x0 + i % tw, y0 + i / tw, staging); },
        [&](int i, Pixel q) { lum[i] = static_cast<unsigned char>(luma601(q)); });
    __syncthreads();
    const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = sobel_at(x, y, [&](int u, int v) { return int(lum[(v - y0) * tw + (u - x0)]); });
}

} // namespace

void SobelOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const OwnDims d = own_dims(own_launch(p), p);
    if (p.variant == 0)
        sobel_naive<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    else
        sobel_tiled<<<d.grid, d.block, 0, l.stream>>>(p, l.out);
    check_launch(l.stream);
}

} // namespace kc
