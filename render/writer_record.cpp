#include "render/writer_record.h"

#include <utility>

namespace kc {

void WriterRecord::keep_cpu(std::vector<unsigned> sm, int width, int height) {
    const bool kept = !sm.empty() && sm.size() == std::size_t(width) * std::size_t(height);
    kept_ = kept ? Kept::Cpu : Kept::None;
    width_ = width, height_ = height;
    host_ = kept ? std::move(sm) : std::vector<unsigned>();
}

std::optional<unsigned> WriterRecord::read_cpu(int x, int y) const {
    if (kept_ != Kept::Cpu || x < 0 || y < 0 || x >= width_ || y >= height_) return std::nullopt;
    return host_[std::size_t(y) * width_ + x];
}

#ifdef KC_HAVE_CUDA
PixelRecord WriterRecord::for_cuda(bool on, int width, int height, cudaStream_t) {
    kept_ = on ? Kept::Cuda : Kept::None;
    if (!on) return {};
    width_ = width, height_ = height;
    if (device_.size() != std::size_t(width) * height) device_ = DeviceBuffer<unsigned>(std::size_t(width) * height);
    return PixelRecord{device_.data(), nullptr};
}

std::optional<unsigned> WriterRecord::read_cuda(int x, int y, cudaStream_t stream) const {
    if (kept_ != Kept::Cuda || x < 0 || y < 0 || x >= width_ || y >= height_) return std::nullopt;
    unsigned sm = 0;
    KC_CUDA_CHECK_THROW(
        cudaMemcpyAsync(&sm, device_.data() + std::size_t(y) * width_ + x, sizeof sm, cudaMemcpyDeviceToHost, stream));
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
    return sm;
}
#endif

} // namespace kc
