#pragma once
// The CUDA backend's launch functions: plain C++ declarations, kernels live in cuda_paint.cu.
#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "cuda_ops.h"
#include "paint_job.h"

namespace kc {

// Launches `job` on `stream`, writing width*height pixels at `out` (device memory). A launch the
// device cannot run is refused before anything is touched and its reason returned; launch errors
// the checks could not foresee throw CudaError.
// Custom operations (see ops/op_base.h) keep device buffers in `ws` between frames.
std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out,
                                      cudaStream_t stream, CudaOpWorkspace& ws);
// The same with a workspace for this call only (per-pixel ops need none; custom ops allocate).
std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out,
                                      cudaStream_t stream);

// Fills `count` pixels with `value`.
void cuda_fill(Pixel* out, std::size_t count, Pixel value, cudaStream_t stream);

} // namespace kc
