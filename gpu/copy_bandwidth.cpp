#include "gpu/copy_bandwidth.h"

#include <algorithm>
#include <vector>

#include "gpu/cuda_check.h"
#include "gpu/cuda_raii.h"

namespace kc {

double event_median_us(int warmup, int reps, const std::function<void()>& body, cudaStream_t stream) {
    CudaEvent start = CudaEvent::create(), stop = CudaEvent::create();
    std::vector<double> times;
    for (int i = 0; i < warmup + reps; ++i) {
        KC_CUDA_CHECK_THROW(cudaEventRecord(start.get(), stream));
        body();
        KC_CUDA_CHECK_THROW(cudaEventRecord(stop.get(), stream));
        KC_CUDA_CHECK_THROW(cudaEventSynchronize(stop.get()));
        float ms = 0;
        KC_CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        if (i >= warmup) times.push_back(ms * 1000.0);
    }
    if (times.empty()) return 0.0;
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return times[times.size() / 2];
}

double time_device_copy_us(std::size_t bytes, int warmup, int reps, cudaStream_t stream) {
    DeviceBuffer<std::uint8_t> src(bytes), dst(bytes);
    KC_CUDA_CHECK_THROW(cudaMemsetAsync(src.data(), 1, bytes, stream)); // real bytes, not untouched pages
    return event_median_us(
        warmup, reps,
        [&] { KC_CUDA_CHECK_THROW(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream)); },
        stream);
}

double device_copy_gbs(cudaStream_t stream) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0.0;
    const std::size_t bytes = std::min<std::size_t>(std::size_t(256) << 20, free / 8) & ~std::size_t(255);
    if (bytes == 0) return 0.0;
    try {
        return copy_gbs(double(bytes), time_device_copy_us(bytes, 2, 5, stream));
    } catch (const CudaError&) { // no figure, not a failed backend: the panel then states no roofline
        cudaGetLastError();
        return 0.0;
    }
}

} // namespace kc
