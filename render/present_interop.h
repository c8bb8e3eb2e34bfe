#pragma once
// cuda-interop's presents: the kernels' pixels reach the GL texture without leaving the GPU.
//   PixelBufferPresent (pbo)  the kernels write the canvas' GL pixel buffer, mapped for CUDA; GL
//                             then copies it into the texture (glTexSubImage2D from the buffer)
//   TexturePresent (texture, surface)  the kernels write CUDA memory, copied into the canvas'
//                             texture (registered as an image) while it is mapped; no GL upload
// Their CUDA registrations are links of the canvas (canvas.h): made on first use after a resize,
// released by the canvas before it deletes the GL objects.
#include <cuda_runtime_api.h>

#include "gpu/cuda_raii.h"
#include "gpu/gpu_timer.h"
#include "render/backend.h"
#include "render/present_path.h"

namespace kc {

class PixelBufferPresent : public PresentPath {
public:
    explicit PixelBufferPresent(cudaStream_t stream) : stream_(stream) {}
    std::optional<std::string> present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) override;

private:
    cudaStream_t stream_; // the painter's
};

class TexturePresent : public PresentPath {
public:
    // `how`: Present::Texture (cudaMemcpy2DToArray) or Present::Surface (a copy kernel's surface writes).
    TexturePresent(cudaStream_t stream, Present how) : stream_(stream), how_(how) {}
    std::optional<std::string> present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) override;
    void collect_timings(StageTimes& times, bool wait) override;

private:
    cudaStream_t stream_;
    Present how_;
    DeviceBuffer<Pixel> device_pixels_; // the kernels' output
    GpuTimerRing copy_timer_;
};

} // namespace kc
