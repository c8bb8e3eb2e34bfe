#pragma once
// What custom operations' CUDA launches get: the job, the output, the stream, and a workspace of
// device buffers they keep between frames (histogram bins, matmul matrices).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/cuda_raii.h"
#include "gpu/paint_job.h"
#include "gpu/user_kernel.h"

namespace kc {

constexpr int kHistogramBins = 4 * 256; // luminance, R, G, B

struct CudaOpWorkspace {
    DeviceBuffer<std::uint32_t> bins[2]; // histogram, one set per variant, kHistogramBins each
    DeviceBuffer<float> a, b, c;         // matmul, N*N each
    int matmul_n = 0;                    // N that a and b hold (0: not generated yet)
    // user_kernel: the loaded kernel (not owned; null: none compiled), and its inputs a and b
    // when no image is loaded: the gradient and the checkerboard, painted for this size and cell.
    const UserKernel* user_kernel = nullptr;
    DeviceBuffer<Pixel> fallback_a, fallback_b;
    int fallback_width = 0, fallback_height = 0, fallback_cell = 0;
    // The user's kernel in checked mode: its out-of-range accesses (zeroed before each launch),
    // and the SM of each block while it keeps a writer record.
    DeviceBuffer<KcViolation> violation;
    DeviceBuffer<unsigned> block_sm;
    unsigned long long recorded_block_threads = 0; // threads per block of the last recorded launch
    // The start view painted without a timeline record: its blocks' times, and their first and last start.
    DeviceBuffer<BlockTime> start_times;
    DeviceBuffer<unsigned long long> start_span;
};

// What an op computed besides pixels (the histogram's bins) on its way to the host. The op's
// read-back hook (Op::cuda_read_back, called after its kernels) queues copies into `words`;
// Op::take_read_back turns them into OpOutputs once `ready` has passed (see cuda_paint.h).
struct CudaReadback {
    PinnedBuffer<std::uint32_t> words;
    CudaEvent ready = CudaEvent::create();
    bool pending = false; // queued, not yet taken
    int op = -1;          // whose words these are
    int variant = 0;      // the variant shown
    bool both = false;    // both variants ran: compare them
};

struct CudaCustomLaunch {
    const PaintJob& job;
    Pixel* out; // width*height device pixels
    cudaStream_t stream;
    CudaOpWorkspace& ws;
};

} // namespace kc
