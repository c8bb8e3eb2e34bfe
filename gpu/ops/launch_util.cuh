#pragma once
// Small helpers shared by the custom operations' kernels (ops/*.cu).
#include "gpu/cuda_check.h"
#include "gpu/cuda_ops.h"

namespace kc {

inline dim3 to_dim3(const Dim3& d) { return dim3(unsigned(d.x), unsigned(d.y), unsigned(d.z)); }

// The block and grid of an op's own launch (Op::own_launch), as the kernels launch it.
struct OwnDims {
    dim3 grid, block;
};
inline OwnDims own_dims(const LaunchConfig& l, const OpParams& p) {
    return {to_dim3(resolved_grid(l, p.width, p.height)), to_dim3(l.block)};
}

// The threads an SM of the GPU being compiled for keeps resident: 2048 on sm_80 and sm_90, 1536 on
// sm_86, sm_87, sm_89 and sm_120, 1024 on sm_75. __launch_bounds__ asking more blocks than fit is
// an error there, so the stencils ask for KC_RESIDENT_BLOCKS(threads, wanted): `wanted` blocks of
// `threads` where they fit (the H200's figure, which the kernels were tuned on), else as many as fit.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define KC_THREADS_PER_SM 1024
#elif defined(__CUDA_ARCH__) &&                                                                                        \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define KC_THREADS_PER_SM 1536
#else
#define KC_THREADS_PER_SM 2048
#endif
#define KC_RESIDENT_BLOCKS(threads, wanted)                                                                            \
    ((wanted) * (threads) <= KC_THREADS_PER_SM ? (wanted) : KC_THREADS_PER_SM / (threads))

// Stages `count` entries of a shared-memory tile with `threads` threads: entry i is load(i), kept
// by store(i, value). Every load a thread makes is issued before the first store, so a block's tile
// costs one trip to DRAM, not one per entry a thread stages (a loop that stores as it loads waits
// for each). At most kMaxPerThread entries a thread.
template <int kMaxPerThread, class Load, class Store>
__device__ __forceinline__ void stage_tile(int count, int tid, int threads, Load&& load, Store&& store) {
    decltype(load(0)) v[kMaxPerThread];
#pragma unroll
    for (int k = 0; k < kMaxPerThread; ++k)
        if (tid + k * threads < count) v[k] = load(tid + k * threads);
#pragma unroll
    for (int k = 0; k < kMaxPerThread; ++k)
        if (tid + k * threads < count) store(tid + k * threads, v[k]);
}

// The params a tiled kernel stages its tile with: each read also prefetches kPrefetchRows below
// (sources.h), which the blocks of those rows will stage (Sobel at 7680x4320: 211 -> 175 us).
__device__ __forceinline__ OpParams staging_params(const OpParams& p) {
    OpParams q = p;
    q.prefetch_rows = kPrefetchRows;
    return q;
}

// Four pixels of the loaded image A, (x..x+3, y), in one 16-byte load (x a multiple of 4 in a row
// of a width that is one too), prefetching the same bytes kPrefetchRows below, which the blocks of
// those rows will stage. For the quad tiles' interior blocks, which need no clamping.
__device__ __forceinline__ uint4 load_quad_prefetching(const OpParams& p, int x, int y) {
    const Pixel* at = p.src_a + y * p.width + x;
    if (y + kPrefetchRows < p.height) prefetch_l2(at + kPrefetchRows * p.width);
    return __ldg(reinterpret_cast<const uint4*>(at));
}

// Stores the 4 outputs q[0..3] of a quad-tile thread at (x..x+3, y): one 16-byte store where the
// row is 16-byte aligned (width a multiple of 4) and all four are inside, else one by one.
__device__ __forceinline__ void store_four(Pixel* out, int x, int y, int width, const Pixel (&q)[4]) {
    Pixel* row = out + y * width;
    if (x + 3 < width && width % 4 == 0) {
        store_quad(row + x, q[0], q[1], q[2], q[3]);
        return;
    }
#pragma unroll
    for (int k = 0; k < 4; ++k)
        if (x + k < width) store_pixel(row + x + k, q[k]);
}

inline void check_launch(cudaStream_t stream) {
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#else
    (void)stream;
#endif
}

} // namespace kc
