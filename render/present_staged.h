#pragma once
// cuda-staged: the tutorials' round trip. The kernels write device memory, copied to pinned host
// memory, which GL uploads into the texture. Works where CUDA cannot register GL objects.
#include <cuda_runtime_api.h>

#include "gpu/cuda_raii.h"
#include "gpu/gpu_timer.h"
#include "render/present_path.h"

namespace kc {

class StagedPresent : public PresentPath {
public:
    explicit StagedPresent(cudaStream_t stream) : stream_(stream) {}
    std::optional<std::string> present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) override;
    void collect_timings(StageTimes& times, bool wait) override;

private:
    cudaStream_t stream_; // the painter's
    DeviceBuffer<Pixel> device_pixels_;
    PinnedBuffer<Pixel> host_pixels_;
    GpuTimerRing copy_timer_;
};

} // namespace kc
