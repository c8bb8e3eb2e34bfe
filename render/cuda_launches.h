#pragma once
// What the CUDA present paths share (CUDA builds only): the device and its stream, the ops'
// workspace and read-backs, the input images on the device, the user's kernel and the kernel
// timers. launch() runs one frame's kernels into the target a present path gives it.
#include <array>
#include <optional>
#include <string>

#include "gpu/cuda_device.h"
#include "gpu/cuda_ops.h"
#include "gpu/cuda_raii.h"
#include "gpu/gpu_timer.h"
#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"
#include "gpu/user_kernel.h"
#include "render/io/source_images.h"
#include "render/present_path.h"
#include "render/timeline_ring.h"
#include "render/writer_record.h"

namespace kc {

// One frame as the kernels take it. The launch was resolved and checked (no refusal) for `job`.
struct CudaFrame {
    const PaintJob& job; // with the device's pointers to the input images
    const ResolvedLaunch& resolved;
    bool both_variants;    // an op of several variants runs its other kernels first, timed only
    WriterRecord& writers; // the inspector's record, kept when `record`
    bool record;
    bool timeline = false; // record the SM timeline (per-pixel ops), read back by take_timeline()
};

class CudaLaunches {
public:
    explicit CudaLaunches(int device);
    const DeviceInfo& info() const { return info_; }
    cudaStream_t stream() const { return stream_.get(); }
    // A device-to-device copy's bandwidth (GB/s), measured when the backend started: the panel's
    // roofline (ops/roofline.h); 0 where it could not be measured.
    double copy_gbs() const { return copy_gbs_; }

    // Points run.params.src_a/src_b at the input images on the device, uploaded once per change.
    // An image too large for the GPU's memory is refused here.
    std::optional<std::string> attach_sources(const SourceImages& sources, std::size_t pixels, PaintJob& run);
    // The frame's kernels into `target` (device memory, or the mapped texture's surface when
    // target.pixels is null): the other variants first, then the job's, then the op's read-back of
    // what it computed besides pixels.
    void launch(const CudaFrame& f, const PaintTarget& target);
    // Finished kernel times into `times`, a finished read-back into `outputs`; never blocks
    // unless `wait`.
    void collect(StageTimes& times, OpOutputs& outputs, bool wait);

    // The newest SM timeline read back since the last call (frames after its launch); `wait`: the
    // last one queued. Its resolution is %globaltimer's step, measured at the first call.
    std::optional<BlockTimeline> take_timeline(bool wait);

    // Compiles the user's kernel for this GPU; see UserKernelSlot.
    KernelCompile compile_user_kernel(std::string_view source, std::string_view file_name, KernelMode mode);
    const UserKernelSlot& user_kernel() const { return user_kernel_; }
    // The SM that ran the block of writer record word `word` in the last recorded launch of the
    // user's kernel; waits for the stream (the inspector only).
    std::optional<unsigned> user_kernel_block_sm(unsigned word);

private:
    DeviceInfo info_;
    CudaStream stream_ = CudaStream::create();
    double copy_gbs_ = 0.0;
    GpuTimerRing kernel_timer_;
    std::array<GpuTimerRing, kMaxVariants> variant_timer_;
    std::array<DeviceBuffer<Pixel>, SourceImages::kSlots> sources_; // input images, fitted
    std::uint64_t sources_generation_ = 0;
    CudaOpWorkspace workspace_;
    CudaReadback read_back_;
    UserKernelSlot user_kernel_;
    TimelineRing timeline_;
    double timer_step_ns_ = -1.0; // %globaltimer's step; < 0: not measured yet
};

// Runs `work`; a CUDA error that leaves the context unusable becomes CudaContextLost.
template <class Work>
auto faults_lose_the_context(Work&& work) {
    try {
        return work();
    } catch (const CudaError& e) {
        if (is_sticky_error(e.code())) throw CudaContextLost(e.what());
        throw;
    }
}

} // namespace kc
