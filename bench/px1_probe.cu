// px1_probe: a one-off measurement of what makes a one-pixel-per-thread kernel slow on a large
// canvas, each factor on its own (issue 13, target 1). Not part of `all`:
//     cmake --build build --target px1_probe && build/px1_probe [W H]
// Kernels over W x H BGRA pixels (default 7680x4320), 32x8 blocks, one pixel per thread; each is
// timed with CUDA events (median of 50 after 10 warm-ups) next to cudaMemcpy of the same canvas:
//   invert: a 32-bit __ldg load, 64-bit index  |  the same, 32-bit index  |  the load with the
//   L2::128B / L2::256B prefetch hint  |  4 pixels a thread (one 16-byte load and store)
//   gradient: 64-bit FastDiv multiplier (kcanvas before)  |  32-bit multiply-high  |  hardware division
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e = (x);                                                                                           \
        if (e != cudaSuccess) {                                                                                        \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                                               \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

__device__ __forceinline__ unsigned invert_word(unsigned v) { return (~v & 0x00FFFFFFu) | 0xFF000000u; }

__global__ void invert_ldg64(const unsigned* a, unsigned* out, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const long long i = 1LL * y * w + x;
    out[i] = invert_word(__ldg(a + i));
}
__global__ void invert_ldg32(const unsigned* a, unsigned* out, int w, int h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= unsigned(w) || y >= unsigned(h)) return;
    const unsigned i = y * w + x;
    out[i] = invert_word(__ldg(a + i));
}
template <int kBytes>
__global__ void invert_prefetch(const unsigned* a, unsigned* out, int w, int h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= unsigned(w) || y >= unsigned(h)) return;
    const unsigned i = y * w + x;
    unsigned v;
    if constexpr (kBytes == 256)
        asm("ld.global.nc.L2::256B.u32 %0, [%1];" : "=r"(v) : "l"(a + i));
    else
        asm("ld.global.nc.L2::128B.u32 %0, [%1];" : "=r"(v) : "l"(a + i));
    out[i] = invert_word(v);
}
// Software prefetch: each thread asks L2 for the pixel kRows rows below its own, which a block
// launched some microseconds later will load, so DRAM streams ahead of the loads.
template <int kRows>
__global__ void invert_prefetch_rows(const unsigned* a, unsigned* out, int w, int h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= unsigned(w) || y >= unsigned(h)) return;
    const unsigned i = y * w + x;
    if (y + kRows < unsigned(h)) asm volatile("prefetch.global.L2 [%0];" ::"l"(a + i + kRows * w));
    out[i] = invert_word(__ldg(a + i));
}
__global__ void invert_quad(const uint4* a, uint4* out, int w, int h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= unsigned(w / 4) || y >= unsigned(h)) return;
    const unsigned i = y * (w / 4) + x;
    const uint4 v = __ldg(a + i);
    out[i] = make_uint4(invert_word(v.x), invert_word(v.y), invert_word(v.z), invert_word(v.w));
}

struct Div64 { // kcanvas's FastDiv before: 64-bit multiplier, shift 31 + l
    unsigned long long m;
    unsigned s;
    __device__ unsigned operator()(unsigned n) const { return unsigned((n * m) >> s); }
};
struct Div32 { // after: multiply-high of 2n by a 32-bit multiplier, shift l
    unsigned m, l;
    __device__ unsigned operator()(unsigned n) const { return __umulhi(n << 1, m) >> l; }
};
__device__ __forceinline__ unsigned bgra(int r, int g, int b) {
    return unsigned(b & 255) | unsigned(g & 255) << 8 | unsigned(r & 255) << 16 | 0xFF000000u;
}
template <class Div>
__global__ void gradient_div(unsigned* out, int w, int h, Div by_w, Div by_h) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= unsigned(w) || y >= unsigned(h)) return;
    out[y * w + x] = bgra(128 - int(by_h(128 * y)), 255 - int(by_w(255 * x)), 255 - int(by_h(255 * y)));
}
__global__ void gradient_hw(unsigned* out, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    out[y * w + x] = bgra(128 - 128 * y / h, 255 - 255 * x / w, 255 - 255 * y / h);
}

template <class Launch>
double median_us(Launch&& launch) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<double> t;
    for (int i = 0; i < 60; ++i) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (i >= 10) t.push_back(ms * 1000.0);
    }
    CHECK(cudaGetLastError());
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
}

Div64 div64(unsigned d) {
    unsigned l = 0;
    while ((1ULL << l) < d) ++l;
    return {((1ULL << (31 + l)) + d - 1) / d, 31 + l};
}
Div32 div32(unsigned d) {
    unsigned l = 0;
    while ((1ULL << l) < d) ++l;
    return {unsigned(((1ULL << (31 + l)) + d - 1) / d), l};
}

} // namespace

int main(int argc, char** argv) {
    const int w = argc > 2 ? std::atoi(argv[1]) : 7680, h = argc > 2 ? std::atoi(argv[2]) : 4320;
    const size_t n = size_t(w) * h, bytes = n * 4;
    unsigned *a, *out;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemset(a, 0x5A, bytes));
    const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8), grid4((w / 4 + 31) / 32, (h + 7) / 8);
    const double copy = median_us([&] { CHECK(cudaMemcpyAsync(out, a, bytes, cudaMemcpyDeviceToDevice)); });
    auto row = [&](const char* name, double moved, double us) {
        std::printf("%-44s %9.2f us  %6.1f%% of copy\n", name, us, 100.0 * (moved / us) / (2.0 * bytes / copy));
    };
    std::printf("%dx%d, block 32x8; cudaMemcpy %.2f us (%.0f GB/s read + write)\n", w, h, copy,
                2.0 * bytes / copy / 1e3);
    row("invert __ldg, 64-bit index", 2.0 * bytes, median_us([&] { invert_ldg64<<<grid, block>>>(a, out, w, h); }));
    row("invert __ldg, 32-bit index", 2.0 * bytes, median_us([&] { invert_ldg32<<<grid, block>>>(a, out, w, h); }));
    row("invert L2::128B hint", 2.0 * bytes, median_us([&] { invert_prefetch<128><<<grid, block>>>(a, out, w, h); }));
    row("invert L2::256B hint", 2.0 * bytes, median_us([&] { invert_prefetch<256><<<grid, block>>>(a, out, w, h); }));
    row("invert, prefetch 32 rows ahead", 2.0 * bytes,
        median_us([&] { invert_prefetch_rows<32><<<grid, block>>>(a, out, w, h); }));
    row("invert, prefetch 64 rows ahead", 2.0 * bytes,
        median_us([&] { invert_prefetch_rows<64><<<grid, block>>>(a, out, w, h); }));
    row("invert, prefetch 128 rows ahead", 2.0 * bytes,
        median_us([&] { invert_prefetch_rows<128><<<grid, block>>>(a, out, w, h); }));
    row("invert, prefetch 256 rows ahead", 2.0 * bytes,
        median_us([&] { invert_prefetch_rows<256><<<grid, block>>>(a, out, w, h); }));
    row("invert 4 px/thread (16-byte load, store)", 2.0 * bytes, median_us([&] {
            invert_quad<<<grid4, block>>>(reinterpret_cast<const uint4*>(a), reinterpret_cast<uint4*>(out), w, h);
        }));
    row("gradient, FastDiv 64-bit multiplier", bytes,
        median_us([&] { gradient_div<<<grid, block>>>(out, w, h, div64(w), div64(h)); }));
    row("gradient, FastDiv 32-bit multiply-high", bytes,
        median_us([&] { gradient_div<<<grid, block>>>(out, w, h, div32(w), div32(h)); }));
    row("gradient, integer division (as CuPy's)", bytes, median_us([&] { gradient_hw<<<grid, block>>>(out, w, h); }));
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    return 0;
}
