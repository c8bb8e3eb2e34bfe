#pragma once
// The roofline's ceiling (ops/roofline.h): how fast this GPU copies device memory to device memory,
// measured once in one place for the bench (per canvas size) and the app (when its CUDA backend
// starts). CUDA builds only.
#include <cuda_runtime.h>

#include <cstddef>

namespace kc {

// The median of `reps` CUDA-event timings of a device-to-device copy of `bytes` on `stream`, after
// `warmup` untimed copies, in microseconds. It waits for each copy (never call it on a frame's
// path). Throws CudaError (out of memory included).
double time_device_copy_us(std::size_t bytes, int warmup, int reps, cudaStream_t stream = nullptr);

// The copy's bandwidth, bytes read plus written per nanosecond (GB/s); 0 without a time.
inline double copy_gbs(std::size_t bytes, double copy_us) { return copy_us > 0 ? 2.0 * bytes / (copy_us * 1e3) : 0.0; }

// The bandwidth the app's panel states rooflines with: a copy of 256 MiB (several times any L2,
// so DRAM's rate, not the cache's), or of an eighth of the free memory where that is less; 0 when
// the copy cannot be measured. A few milliseconds, once.
double device_copy_gbs(cudaStream_t stream = nullptr);

} // namespace kc
