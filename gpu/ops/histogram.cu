#include "gpu/ops/histogram.h"
#include "gpu/ops/launch_util.cuh"

namespace kc {

namespace {

// Pixel i of A in row-major order, without a 64-bit division (FastDiv: prepare_divisors ran).
__device__ __forceinline__ Pixel pixel_at(unsigned i, const OpParams& p) {
    if (p.src_a) return load_pixel(p.src_a + i);
    const unsigned y = p.by_width(i);
    return source_a(static_cast<int>(i - y * p.width), static_cast<int>(y), p);
}

// Every pixel adds to the four global bin arrays with atomics (contended on flat images).
__global__ void histogram_global(OpParams p, Pixel* out, std::uint32_t* bins) {
    const unsigned n = static_cast<unsigned>(p.width) * p.height; // at most 2^28 pixels: 32-bit indices
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const Pixel q = pixel_at(i, p);
        atomicAdd(&bins[luma601(q)], 1u);
        atomicAdd(&bins[256 + q.r], 1u);
        atomicAdd(&bins[512 + q.g], 1u);
        atomicAdd(&bins[768 + q.b], 1u);
        store_pixel(out + i, Pixel{q.b, q.g, q.r, 255});
    }
}

// Each block counts into its own bins in shared memory, then adds them to the global bins once.
__global__ void histogram_shared(OpParams p, Pixel* out, std::uint32_t* bins) {
    __shared__ std::uint32_t local[kHistogramBins];
    for (int i = threadIdx.x; i < kHistogramBins; i += blockDim.x) local[i] = 0;
    __syncthreads();
    const unsigned n = static_cast<unsigned>(p.width) * p.height; // at most 2^28 pixels: 32-bit indices
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const Pixel q = pixel_at(i, p);
        atomicAdd(&local[luma601(q)], 1u);
        atomicAdd(&local[256 + q.r], 1u);
        atomicAdd(&local[512 + q.g], 1u);
        atomicAdd(&local[768 + q.b], 1u);
        store_pixel(out + i, Pixel{q.b, q.g, q.r, 255});
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kHistogramBins; i += blockDim.x)
        if (local[i]) atomicAdd(&bins[i], local[i]);
}

} // namespace

void HistogramOp::cuda_launch(const CudaCustomLaunch& l) {
    const OpParams& p = l.job.params;
    DeviceBuffer<std::uint32_t>& bins = l.ws.bins[p.variant];
    if (bins.size() != kHistogramBins) bins = DeviceBuffer<std::uint32_t>(kHistogramBins);
    KC_CUDA_CHECK_THROW(cudaMemsetAsync(bins.data(), 0, bins.bytes(), l.stream));
    const OwnDims d = own_dims(own_launch(p), p);
    if (p.variant == 0)
        histogram_global<<<d.grid, d.block, 0, l.stream>>>(p, l.out, bins.data());
    else
        histogram_shared<<<d.grid, d.block, 0, l.stream>>>(p, l.out, bins.data());
    check_launch(l.stream);
}

void HistogramOp::cuda_read_back(const CudaCustomLaunch& l, bool both_variants, CudaReadback& rb) {
    if (rb.words.size() != 2 * kHistogramBins) rb.words = PinnedBuffer<std::uint32_t>(2 * kHistogramBins);
    for (int v = 0; v < 2; ++v)
        if (l.ws.bins[v].size() == kHistogramBins && (both_variants || v == l.job.params.variant))
            KC_CUDA_CHECK_THROW(cudaMemcpyAsync(rb.words.data() + v * kHistogramBins, l.ws.bins[v].data(),
                                                l.ws.bins[v].bytes(), cudaMemcpyDeviceToHost, l.stream));
}

void HistogramOp::take_read_back(const CudaReadback& rb, OpOutputs& out) {
    const std::uint32_t* shown = rb.words.data() + rb.variant * kHistogramBins;
    for (int h = 0; h < 4; ++h)
        for (int i = 0; i < 256; ++i) out.histogram[h][i] = shown[h * 256 + i];
    out.has_histogram = true;
    out.histogram_mismatches = -1;
    if (rb.both) {
        out.histogram_mismatches = 0;
        for (int i = 0; i < kHistogramBins; ++i)
            out.histogram_mismatches += rb.words.data()[i] != rb.words.data()[kHistogramBins + i];
    }
}

} // namespace kc
