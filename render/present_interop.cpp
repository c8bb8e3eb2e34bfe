#include "render/present_interop.h"

#include <chrono>

#include "gpu/cuda_check.h"
#include "gpu/cuda_paint.h"
#include "render/cuda_gl_buffer.h"

namespace kc {

namespace {

using Clock = std::chrono::steady_clock;

// The canvas' pixel buffer and its texture, registered with CUDA; the canvas holds them.
struct PixelBufferLink : CanvasLink {
    explicit PixelBufferLink(GLuint buffer) : registration(buffer) {}
    CudaGlBuffer registration;
};
struct TextureLink : CanvasLink {
    explicit TextureLink(GLuint texture) : registration(texture) {}
    CudaGlImage registration;
};

template <class Link>
const Link& registered(Canvas& canvas, GLuint object) {
    if (const Link* held = canvas.link<Link>()) return *held;
    return canvas.add_link(std::make_unique<Link>(object));
}

} // namespace

std::optional<std::string> PixelBufferPresent::present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) {
    const CudaGlBuffer& registration = registered<PixelBufferLink>(canvas, canvas.pixel_buffer()).registration;
    const auto t_map = Clock::now();
    std::optional<Clock::time_point> t_unmap;
    {
        ScopedCudaMap mapped(registration, stream_);
        timers.times.map.add(micros_since(t_map));
        if (auto refusal = kernels.run({mapped.pixels()})) return refusal;
        t_unmap = Clock::now();
    }
    timers.times.unmap.add(micros_since(*t_unmap));
    timed_upload(timers.upload, [&] { canvas.upload_from_pixel_buffer(); });
    return std::nullopt;
}

std::optional<std::string> TexturePresent::present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) {
    if (device_pixels_.size() != canvas.pixel_count()) device_pixels_ = DeviceBuffer<Pixel>(canvas.pixel_count());
    const CudaGlImage& registration = registered<TextureLink>(canvas, canvas.texture()).registration;
    if (auto refusal = kernels.run({device_pixels_.data()})) return refusal;
    const auto t_map = Clock::now();
    std::optional<Clock::time_point> t_unmap;
    {
        ScopedCudaImageMap mapped(registration, stream_);
        timers.times.map.add(micros_since(t_map));
        const bool timed = copy_timer_.begin(stream_);
        if (how_ == Present::Texture) {
            const std::size_t row = std::size_t(canvas.width()) * sizeof(Pixel);
            KC_CUDA_CHECK_THROW(cudaMemcpy2DToArrayAsync(mapped.array(), 0, 0, device_pixels_.data(), row, row,
                                                         canvas.height(), cudaMemcpyDeviceToDevice, stream_));
        } else {
            cuda_copy_to_surface(device_pixels_.data(), canvas.width(), canvas.height(), mapped.surface(), stream_);
        }
        if (timed) copy_timer_.end(stream_);
        t_unmap = Clock::now();
    }
    timers.times.unmap.add(micros_since(*t_unmap));
    // A byte copy leaves B,G,R,A bytes in RGBA8 storage; the surface kernel swizzles.
    if (how_ == Present::Texture)
        canvas.mark_texture_written_raw();
    else
        canvas.mark_texture_written_rgba();
    return std::nullopt;
}

void TexturePresent::collect_timings(StageTimes& times, bool wait) { copy_timer_.collect_into(times.copy, wait); }

} // namespace kc
