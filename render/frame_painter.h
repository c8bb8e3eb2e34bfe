#pragma once
// The front of painting: picks the backend (backend.h) and the present path that gets a painted
// frame into the canvas texture (cpu_paint_worker, present_staged, present_interop), resolves the
// job's launch once and hands the path the frame's kernels (the CPU emulator, or CudaLaunches).
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/block_timeline.h"
#include "gpu/context_lost.h"
#include "gpu/cpu_emulator.h"
#include "gpu/cuda_device.h"
#include "gpu/launch_config.h"
#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"
#include "gpu/user_kernel.h"
#include "render/backend.h"
#include "render/canvas.h"
#include "render/cpu_paint_worker.h"
#include "render/cpu_user_kernel.h"
#include "render/gl_timer.h"
#include "render/io/source_images.h"
#include "render/present_path.h"

namespace kc {

struct DeviceSummary {
    std::string name; // GPU name, or "CPU (N threads)"
    DeviceLimits limits;
};

class WriterRecord;
struct OpInfo;
struct PainterCuda; // FramePainter's CUDA side (render/frame_painter_cuda.h)
struct PainterCudaDeleter {
    void operator()(PainterCuda* cuda) const;
};
using PainterCudaPtr = std::unique_ptr<PainterCuda, PainterCudaDeleter>;

class FramePainter {
public:
    // Needs the GL context current. Picks the first backend that works here, in the order
    // interop, staged, cpu; `forced` insists on one and throws std::runtime_error if it can't.
    // CUDA paints on `gpu` (--gpu), by default on the GPU the GL context runs on; interop is
    // unavailable, with the reason, when the two differ (gpu_select.h).
    explicit FramePainter(std::optional<Backend> forced = std::nullopt, std::optional<int> gpu = std::nullopt);
    ~FramePainter();
    FramePainter(const FramePainter&) = delete;
    FramePainter& operator=(const FramePainter&) = delete;

    Backend backend() const { return backend_; }
    // Empty when the backend works here, otherwise why not.
    const std::string& unavailable_reason(Backend b) const { return why_not_[static_cast<int>(b)]; }
    bool set_backend(Backend b); // false (and no change) when unavailable
    Present present() const { return present_; }
    void set_present(Present p);
    DeviceSummary device() const;
    DeviceLimits limits() const; // the active backend's launch limits
    int cuda_device() const;     // -1 without CUDA
    // The CUDA devices the GL context runs on (cudaGLGetDevices); empty when CUDA cannot tell.
    const std::vector<int>& gl_gpus() const { return gl_gpus_; }

    // Paints `job` and uploads it to the canvas texture. An illegal launch returns its reason and
    // leaves the pixel buffer and the texture as they were.
    // `sources` (optional) are the input images: uploaded to the GPU only when their generation
    // changes, and passed to the operation as params.src_a / src_b. With `both_variants`, an
    // operation of several variants runs its other kernels first (timed into times().variant) and
    // then the selected one, whose picture stays.
    std::optional<std::string> paint(const PaintJob& job, Canvas& canvas, const SourceImages* sources = nullptr,
                                     bool both_variants = true);
    // The same with the job's launch resolved by the caller (the frame loop resolves it once, for
    // the painter and the panel): `resolved` must be resolve_launch(job, limits()).
    std::optional<std::string> paint(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                     const SourceImages* sources = nullptr, bool both_variants = true);
    // The window's paint: on the cpu backend the frame runs on a worker thread and is waited for
    // at most `wait`; a frame that takes longer goes on painting while the canvas keeps the last
    // finished picture (painting_seconds() says so), and lands in a later call (which looks for it
    // for 10 ms at most), which then starts the next. Returns the refusal of the last finished
    // frame. CUDA backends: paint().
    std::optional<std::string> paint_responsive(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                                const SourceImages* sources, bool both_variants,
                                                std::chrono::milliseconds wait);
    // Two painters on one GPU (the A/B split): this one's next launches start after everything
    // `before` has launched, so their kernels never overlap and neither's event times hold the
    // other's work. Nothing waits on the CPU; a no-op unless both run a CUDA backend.
    void queue_after(const FramePainter& before);
    // How long the cpu frame in flight has been painting; nullopt when none is.
    std::optional<double> painting_seconds() const;
    // Waits for the cpu frame in flight, if any, and puts it on the canvas (a script's save).
    void finish_painting(Canvas& canvas);
    // What the last painted custom operation computed besides pixels (histograms), read back
    // without stalling: it may lag a frame or two behind on the CUDA backends.
    const OpOutputs& outputs() const { return outputs_; }
    // Moves finished timings into times(); never blocks unless `wait` (end of a headless run).
    void collect_timings(bool wait = false);
    const StageTimes& times() const { return times_; }
    // Which way the last painted frame reached the texture (direct: the op's kernel wrote it).
    FrameRoute route() const { return route_; }
    // With present direct, why the last frame took the buffer and the copy instead ("" if it did not).
    const std::string& why_copied() const { return why_copied_; }
    StageTimes& times() { return times_; }
    // Whether the last paint ran every variant of an op of several (times().variant holds them all).
    // The cpu backend never does: its one plain C++ implementation serves every variant.
    bool ran_both_variants() const { return ran_both_variants_; }

    // Compiles the user's kernel (op user_kernel) and loads it; from the next paint on it runs. On
    // a CUDA backend NVRTC compiles it for this painter's GPU; on the cpu backend the system's C++
    // compiler (cpukernel/) and it runs in the kernel sandbox (sandbox/). On failure the previous
    // kernel, if any, keeps running and the log says why (no compiler, the compiler's errors).
    KernelCompile compile_user_kernel(std::string_view source, std::string_view file_name = "kernel.cu",
                                      KernelMode mode = KernelMode::Checked);
    bool has_user_kernel() const;
    // How long one cpu frame of the user's kernel may run before the sandbox stops it.
    void set_kernel_time_limit(std::chrono::milliseconds limit) { cpu_kernel_.set_time_limit(limit); }
    // The source of the kernel that runs now (saved when it faults).
    const std::string& user_kernel_source() const;

    // The inspector's per-pixel writer record (see writer_record.h); off unless asked for, as it
    // costs a write per pixel. sm_of_pixel reads one entry of the last paint that kept it.
    void record_writers(bool on) { record_writers_ = on; }
    std::optional<unsigned> sm_of_pixel(int x, int y);
    // The user's kernel in checked mode: the writer record's word for pixel (x, y) of the last paint
    // that kept one (gpu/kernel_check.h decodes it) and the SM of the writer's block; nullopt when
    // none was kept (raw mode, the inspector just turned on).
    struct RecordedWord {
        unsigned word = 0;
        std::optional<unsigned> sm;
    };
    std::optional<RecordedWord> user_kernel_writer(int x, int y);
    // The SM timeline (gpu/block_timeline.h): while on (and always in the start view), the per-pixel
    // ops' kernels record each block's SM (on the cpu backend, its worker) and its start and end.
    // timeline() is the newest recording: on CUDA read back frames later, never stalling; its
    // resolution the clock's smallest step, measured once per backend.
    void record_timeline(bool on) { record_timeline_ = on; }
    bool records_timeline() const { return record_timeline_; }
    const std::optional<BlockTimeline>& timeline() const { return timeline_; }
    // The copy bandwidth (GB/s) the roofline of the active backend's kernels is stated against,
    // measured once when CUDA started; 0 on the cpu backend, which states no roofline.
    double copy_gbs() const;
    // The CUDA device's properties, or null without one (the CPU backend still shows them).
    const DeviceInfo* device_info() const;

private:
    std::optional<std::string> paint_frame(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                           const SourceImages* sources, bool both_variants,
                                           std::optional<std::chrono::milliseconds> wait);
    std::optional<std::string> paint_on_cpu(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                            const SourceImages* sources, std::optional<std::chrono::milliseconds> wait);
    std::optional<CpuFrame> take_cpu_frame(std::optional<std::chrono::milliseconds> wait);
    void put_cpu_frame(CpuFrame frame, Canvas& canvas);
    void keep_cpu_timeline(CpuFrame& frame);
    std::shared_ptr<const CpuInputs> cpu_inputs_for(const SourceImages* sources, const Canvas& canvas);
    PresentPath& present_path();
    FrameRoute route_for(const OpInfo& op, const PaintJob& job, const ResolvedLaunch& resolved);

    PainterCudaPtr cuda_; // CudaLaunches and the CUDA present paths; null without CUDA
    CpuGridEmulator emulator_;
    CpuUserKernel cpu_kernel_;                          // the user's kernel on the cpu backend
    CpuPaintWorker cpu_worker_{emulator_, cpu_kernel_}; // after both: stopped and joined before they go
    std::shared_ptr<const CpuInputs> cpu_inputs_;
    std::uint64_t cpu_inputs_generation_ = 0;
    std::optional<std::string> cpu_result_; // the refusal of the last cpu frame that finished
    std::vector<Pixel> cpu_spare_pixels_;   // the last shown frame's buffer, painted into again
    Backend backend_ = Backend::Cpu;
    Present present_ = Present::Direct; // no copy where the frame allows; measured on the H200 (results/)
    FrameRoute route_ = FrameRoute::HostUpload;
    std::string why_copied_;
    std::array<std::string, 3> why_not_;
    std::vector<int> gl_gpus_;
    StageTimes times_;
    GlTimerRing upload_timer_;
    bool ran_both_variants_ = false;
    bool record_writers_ = false;
    bool record_timeline_ = false;
    bool timeline_this_frame_ = false; // on, or the start view: the frame records the timeline
    std::optional<BlockTimeline> timeline_;
    double cpu_clock_step_ns_ = -1.0; // steady_clock's step; < 0: not measured yet
    std::unique_ptr<WriterRecord> writers_;
    OpOutputs outputs_;
};

} // namespace kc
