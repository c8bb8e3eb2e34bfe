#include "gpu/ops/launch_util.cuh"
#include "gpu/ops/matmul.h"
#include "gpu/ops/matmul_cuda.h"

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

// Register-blocked: a 128x128 tile of C per block of 256 threads, each thread an 8x8 sub-tile held
// in registers. Per step of k a thread reads 8 values of A and 8 of B from shared memory and does
// 64 multiply-adds with them (the tiled kernel: 2 reads per multiply-add). A's tile is stored
// transposed so that both reads are float4s along a row. Rows and columns past N read zeros and are
// not written; N is a multiple of 16, so a float4 is wholly inside or outside.
constexpr int kRegBlock = 128, kRegK = 8, kRegThread = 8;
__global__ void __launch_bounds__(256) matmul_registers(const float* a, const float* b, float* c, int n) {
    __shared__ __align__(16) float as[kRegK][kRegBlock], bs[kRegK][kRegBlock];
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int row0 = blockIdx.y * kRegBlock, col0 = blockIdx.x * kRegBlock;
    const int a_row = tid / 2, a_col = (tid % 2) * 4;   // A tile: 128 rows x 8, one float4 each
    const int b_row = tid / 32, b_col = (tid % 32) * 4; // B tile: 8 rows x 128
    float acc[kRegThread][kRegThread] = {};
    for (int k0 = 0; k0 < n; k0 += kRegK) {
        const float4 va = row0 + a_row < n ? *reinterpret_cast<const float4*>(a + 1LL * (row0 + a_row) * n + k0 + a_col)
                                           : make_float4(0, 0, 0, 0);
        const float4 vb = col0 + b_col < n ? *reinterpret_cast<const float4*>(b + 1LL * (k0 + b_row) * n + col0 + b_col)
                                           : make_float4(0, 0, 0, 0);
        as[a_col + 0][a_row] = va.x, as[a_col + 1][a_row] = va.y, as[a_col + 2][a_row] = va.z;
        as[a_col + 3][a_row] = va.w;
        *reinterpret_cast<float4*>(&bs[b_row][b_col]) = vb;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kRegK; ++k) {
            float ra[kRegThread], rb[kRegThread];
#pragma unroll
            for (int q = 0; q < kRegThread; q += 4) {
                *reinterpret_cast<float4*>(&ra[q]) = *reinterpret_cast<const float4*>(&as[k][ty * kRegThread + q]);
                *reinterpret_cast<float4*>(&rb[q]) = *reinterpret_cast<const float4*>(&bs[k][tx * kRegThread + q]);
            }
#pragma unroll
            for (int i = 0; i < kRegThread; ++i)
#pragma unroll
                for (int j = 0; j < kRegThread; ++j) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kRegThread; ++i) {
        const int row = row0 + ty * kRegThread + i;
        if (row >= n) break;
#pragma unroll
        for (int q = 0; q < kRegThread; q += 4) {
            const int col = col0 + tx * kRegThread + q;
            if (col < n)
                *reinterpret_cast<float4*>(c + 1LL * row * n + col) =
                    make_float4(acc[i][q], acc[i][q + 1], acc[i][q + 2], acc[i][q + 3]);
        }
    }
}

__global__ void matmul_heatmap(OpParams p, const float* c, Pixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) return;
    out[1LL * y * p.width + x] = heat_colour(c[heat_index(x, y, p.width, p.height, p.matmul_n)], p.matmul_n);
}

} // namespace

void matmul_fill_inputs(float* a, float* b, int n, cudaStream_t stream) {
    const dim3 block(kMatmulTile, kMatmulTile),
        grid((n + kMatmulTile - 1) / kMatmulTile, (n + kMatmulTile - 1) / kMatmulTile);
    matmul_init<<<grid, block, 0, stream>>>(a, b, n);
    check_launch(stream);
}

void matmul_multiply(int variant, const float* a, const float* b, float* c, int n, cudaStream_t stream) {
    const dim3 block(kMatmulTile, kMatmulTile), grid(n / kMatmulTile, n / kMatmulTile);
    if (variant == 0) {
        matmul_naive<<<grid, block, 0, stream>>>(a, b, c, n);
    } else if (variant == 1) {
        matmul_tiled<<<grid, block, 0, stream>>>(a, b, c, n);
    } else {
        const int blocks = (n + kRegBlock - 1) / kRegBlock;
        matmul_registers<<<dim3(blocks, blocks), 256, 0, stream>>>(a, b, c, n);
    }
    check_launch(stream);
}

void MatmulOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    const int n = p.matmul_n;
    CudaOpWorkspace& ws = l.ws;
    if (ws.matmul_n != n) {
        ws.matmul_n = 0;
        ws.a = DeviceBuffer<float>(1ULL * n * n);
        ws.b = DeviceBuffer<float>(1ULL * n * n);
        ws.c = DeviceBuffer<float>(1ULL * n * n);
        matmul_fill_inputs(ws.a.data(), ws.b.data(), n, l.stream);
        ws.matmul_n = n;
    }
    matmul_multiply(p.variant, ws.a.data(), ws.b.data(), ws.c.data(), n, l.stream);
    const OwnDims heatmap = own_dims(own_launch(p), p);
    matmul_heatmap<<<heatmap.grid, heatmap.block, 0, l.stream>>>(p, ws.c.data(), l.out);
    check_launch(l.stream);
}

} // namespace kc
