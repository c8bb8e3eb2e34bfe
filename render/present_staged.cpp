#include "render/present_staged.h"

#include "gpu/cuda_check.h"

namespace kc {

std::optional<std::string> StagedPresent::present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) {
    if (device_pixels_.size() != canvas.pixel_count()) device_pixels_ = DeviceBuffer<Pixel>(canvas.pixel_count());
    if (host_pixels_.size() != canvas.pixel_count()) host_pixels_ = PinnedBuffer<Pixel>(canvas.pixel_count());
    if (auto refusal = kernels.run({device_pixels_.data()})) return refusal;
    const bool timed = copy_timer_.begin(stream_);
    KC_CUDA_CHECK_THROW(cudaMemcpyAsync(host_pixels_.data(), device_pixels_.data(), device_pixels_.bytes(),
                                        cudaMemcpyDeviceToHost, stream_));
    if (timed) copy_timer_.end(stream_);
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_)); // the host needs the pixels now
    timed_upload(timers.upload, [&] { canvas.upload_from_host(host_pixels_.data()); });
    return std::nullopt;
}

void StagedPresent::collect_timings(StageTimes& times, bool wait) { copy_timer_.collect_into(times.copy, wait); }

} // namespace kc
