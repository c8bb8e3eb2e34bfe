#include "launch_util.cuh"
#include "matmul.h"

namespace kc {

namespace {

__global__ void matmul_init(float* a, float* b, int n) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    a[1LL * i * n + j] = matmul_input(i, j, n, 0);
    b[1LL * i * n + j] = matmul_input(i, j, n, 1);
}

// Naive: one thread per C element; every step of k reads A and B from global memory.
__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[1LL * i * n + k] * b[1LL * k * n + j];
    c[1LL * i * n + j] = sum;
}

// Tiled: the block stages 16x16 tiles of A and B in shared memory; each element loaded from
// global memory is reused 16 times. N is a multiple of 16 (params_error checks).
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float ta[kMatmulTile][kMatmulTile], tb[kMatmulTile][kMatmulTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.x * kMatmulTile + tx, i = blockIdx.y * kMatmulTile + ty;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += kMatmulTile) {
        ta[ty][tx] = a[1LL * i * n + k0 + tx];
        tb[ty][tx] = b[1LL * (k0 + ty) * n + j];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kMatmulTile; ++k) sum += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[1LL * i * n + j] = sum;
}

__global__ void matmul_heatmap(OpParams p, const float* c, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = heat_colour(c[heat_index(x, y, p.width, p.height, p.matmul_n)], p.matmul_n);
}

} // namespace

void MatmulOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const int n = p.matmul_n;
    CudaOpWorkspace& ws = l.ws;
    const dim3 block(kMatmulTile, kMatmulTile), grid(n / kMatmulTile, n / kMatmulTile);
    if (ws.matmul_n != n) {
        ws.matmul_n = 0;
        ws.a = DeviceBuffer<float>(1ULL * n * n);
        ws.b = DeviceBuffer<float>(1ULL * n * n);
        ws.c = DeviceBuffer<float>(1ULL * n * n);
        matmul_init<<<grid, block, 0, l.stream>>>(ws.a.data(), ws.b.data(), n);
        check_launch(l.stream);
        ws.matmul_n = n;
    }
    if (p.variant == 0)
        matmul_naive<<<grid, block, 0, l.stream>>>(ws.a.data(), ws.b.data(), ws.c.data(), n);
    else
        matmul_tiled<<<grid, block, 0, l.stream>>>(ws.a.data(), ws.b.data(), ws.c.data(), n);
    check_launch(l.stream);
    const OwnDims heatmap = own_dims(own_launch(p), p);
    matmul_heatmap<<<heatmap.grid, heatmap.block, 0, l.stream>>>(p, ws.c.data(), l.out);
    check_launch(l.stream);
}

} // namespace kc
