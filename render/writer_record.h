#pragma once
// Where the per-pixel writer record lives between paints: host memory for the CPU emulator,
// device memory for CUDA. Kept apart from FramePainter so its backends only pass pointers on.
#include <cstddef>
#include <optional>
#include <vector>

#include "gpu/thread_body.h"

#ifdef KC_HAVE_CUDA
#include "gpu/cuda_raii.h"
#endif

namespace kc {

class WriterRecord {
public:
    // Keeps the record a cpu frame made (render/cpu_paint_worker.h): which worker wrote each of
    // width*height pixels; an empty one (not recorded) keeps none.
    void keep_cpu(std::vector<unsigned> sm, int width, int height);
    // Which SM wrote pixel (x, y) in the last paint that kept a record; nullopt when none did.
    std::optional<unsigned> read_cpu(int x, int y) const;
#ifdef KC_HAVE_CUDA
    PixelRecord for_cuda(bool on, int width, int height, cudaStream_t stream);
    // Reads one entry (4 bytes), waiting for `stream`: call only while the inspector is active.
    std::optional<unsigned> read_cuda(int x, int y, cudaStream_t stream) const;
#endif

private:
    // Which record the last paint filled, and for what canvas width.
    enum class Kept { None, Cpu, Cuda } kept_ = Kept::None;
    int width_ = 0;
    int height_ = 0;
    std::vector<unsigned> host_;
#ifdef KC_HAVE_CUDA
    DeviceBuffer<unsigned> device_;
#endif
};

} // namespace kc
