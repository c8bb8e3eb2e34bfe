#include "gpu/gpu_timer.h"

namespace kc {

GpuTimerRing::GpuTimerRing(int slots) {
    slots_.reserve(slots);
    for (int i = 0; i < slots; ++i) slots_.push_back({CudaEvent::create(), CudaEvent::create()});
}

bool GpuTimerRing::begin(cudaStream_t stream) {
    if (pending_ == slots_.size()) return false;
    KC_CUDA_CHECK_THROW(cudaEventRecord(slots_[next_].start.get(), stream));
    return true;
}

void GpuTimerRing::end(cudaStream_t stream) {
    KC_CUDA_CHECK_THROW(cudaEventRecord(slots_[next_].stop.get(), stream));
    next_ = (next_ + 1) % slots_.size();
    ++pending_;
}

} // namespace kc
