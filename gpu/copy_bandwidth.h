#pragma once
// The roofline's ceiling (ops/roofline.h): how fast this GPU copies device memory to device memory,
// measured once in one place for the bench (per canvas size) and the app (when its CUDA backend
// starts). CUDA builds only.
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

#include "gpu/ops/roofline.h"

namespace kc {

// The median of `reps` CUDA-event timings of `body` on `stream`, after `warmup` untimed runs, in
// microseconds. It waits for each run (never call it on a frame's path).
double event_median_us(int warmup, int reps, const std::function<void()>& body, cudaStream_t stream = nullptr);

// The median of `reps` CUDA-event timings of a device-to-device copy of `bytes` on `stream`, after
// `warmup` untimed copies, in microseconds. It waits for each copy (never call it on a frame's
// path). Throws CudaError (out of memory included).
double time_device_copy_us(std::size_t bytes, int warmup, int reps, cudaStream_t stream = nullptr);

// The bandwidth the app's panel states rooflines with: a copy of 256 MiB (several times any L2,
// so DRAM's rate, not the cache's), or of an eighth of the free memory where that is less; 0 when
// the copy cannot be measured. A few milliseconds, once.
double device_copy_gbs(cudaStream_t stream = nullptr);

} // namespace kc
