#pragma once
// What custom operations' CUDA launches get: the job, the output, the stream, and a workspace of
// device buffers they keep between frames (histogram bins, matmul matrices).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda_raii.h"
#include "paint_job.h"

namespace kc {

constexpr int kHistogramBins = 4 * 256; // luminance, R, G, B

struct CudaOpWorkspace {
    DeviceBuffer<std::uint32_t> bins[2]; // histogram, one set per variant, kHistogramBins each
    DeviceBuffer<float> a, b, c;         // matmul, N*N each
    int matmul_n = 0;                    // N that a and b hold (0: not generated yet)
};

struct CudaCustomLaunch {
    const PaintJob& job;
    Pixel* out; // width*height device pixels
    cudaStream_t stream;
    CudaOpWorkspace& ws;
};

} // namespace kc
