#pragma once
// Gets a painted frame into the canvas texture through one of three backends:
//   cuda-interop  the kernel writes the GL pixel buffer directly (zero copy)
//   cuda-staged   the kernel writes device memory, copied to pinned host memory, then uploaded
//                 (the tutorials' host round trip; works where interop registration fails)
//   cpu           the grid emulator runs the same thread bodies on the CPU, then uploaded
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "canvas.h"
#include "cuda_device.h"
#include "gl_timer.h"
#include "launch_config.h"
#include "ops/op_base.h"
#include "paint_job.h"
#include "source_images.h"
#include "timing.h"
#include "user_kernel.h"

namespace kc {

enum class Backend { CudaInterop, CudaStaged, Cpu };
inline constexpr std::array kAllBackends{Backend::CudaInterop, Backend::CudaStaged, Backend::Cpu};
std::string_view backend_name(Backend b);
std::optional<Backend> parse_backend(std::string_view name);

// How cuda-interop gets the kernel's pixels into the displayed texture:
//   pbo      the kernel writes the GL pixel buffer; glTexSubImage2D uploads it into the texture
//   texture  the kernel writes CUDA memory; cudaMemcpy2DToArray copies it into the GL texture
//            (registered as an image): no GL upload
//   surface  the kernel writes CUDA memory; a copy kernel writes it into the GL texture through
//            a surface object: no GL upload
enum class Present { PixelBuffer, Texture, Surface };
inline constexpr std::array kAllPresents{Present::PixelBuffer, Present::Texture, Present::Surface};
std::string_view present_name(Present p);
std::optional<Present> parse_present(std::string_view name);

// Per-stage times in microseconds. `map`, `unmap` are CPU wall time of the CUDA calls; `kernel`
// and `copy` are CUDA events (the CPU emulator's wall time for cpu); `upload` is a GL timer query;
// for the texture and surface paths `map`/`unmap` are the texture's and `copy` the copy into it.
// `variant` holds both kernels' times of two-variant operations (naive, tiled) side by side.
struct StageTimes {
    TimingStats map, kernel, unmap, copy, upload;
    std::array<TimingStats, 2> variant;
    void clear() {
        map.clear(), kernel.clear(), unmap.clear(), copy.clear(), upload.clear(), variant[0].clear(),
            variant[1].clear();
    }
};

struct DeviceSummary {
    std::string name; // GPU name, or "CPU (N threads)"
    DeviceLimits limits;
};

class WriterRecord;

// A kernel faulted (an illegal address, a trap, ...) and took the CUDA context with it: nothing
// more can run on the GPU in this process. paint() and collect_timings() throw it.
class CudaContextLost : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class FramePainter {
public:
    // Needs the GL context current. Picks the first backend that works here, in the order
    // interop, staged, cpu; `forced` insists on one and throws std::runtime_error if it can't.
    explicit FramePainter(std::optional<Backend> forced = std::nullopt);
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

    // Paints `job` and uploads it to the canvas texture. An illegal launch returns its reason and
    // leaves the pixel buffer and the texture as they were.
    // `sources` (optional) are the input images: uploaded to the GPU only when their generation
    // changes, and passed to the operation as params.src_a / src_b. With `both_variants`, a
    // two-variant operation runs its other kernel first (timed into times().variant) and then
    // the selected one, whose picture stays.
    std::optional<std::string> paint(const PaintJob& job, Canvas& canvas, const SourceImages* sources = nullptr,
                                     bool both_variants = true);
    // What the last painted custom operation computed besides pixels (histograms), read back
    // without stalling: it may lag a frame or two behind on the CUDA backends.
    const OpOutputs& outputs() const { return outputs_; }
    // Moves finished timings into times(); never blocks unless `wait` (end of a headless run).
    void collect_timings(bool wait = false);
    const StageTimes& times() const { return times_; }
    StageTimes& times() { return times_; }
    // Whether the last paint ran both variants of a two-variant op (times().variant holds both).
    // The cpu backend never does: its one plain C++ implementation serves both variants.
    bool ran_both_variants() const { return ran_both_variants_; }

    // Compiles the user's kernel (op user_kernel) with NVRTC for this painter's GPU and loads it;
    // from the next paint on it runs. On failure the previous kernel, if any, keeps running and
    // the log says why (NVRTC missing, no CUDA GPU, the compiler's errors).
    KernelCompile compile_user_kernel(std::string_view source, std::string_view file_name = "kernel.cu");
    bool has_user_kernel() const;
    // The source of the kernel that runs now (saved when it faults).
    const std::string& user_kernel_source() const { return user_kernel_source_; }

    // The inspector's per-pixel writer record (see writer_record.h); off unless asked for, as it
    // costs a write per pixel. sm_of_pixel reads one entry of the last paint that kept it.
    void record_writers(bool on) { record_writers_ = on; }
    std::optional<unsigned> sm_of_pixel(int x, int y);
    // The CUDA device's properties, or null without one (the CPU backend still shows them).
    const DeviceInfo* device_info() const;

private:
    struct CudaState;
    struct CpuState;
    struct Frame;
    // The pieces of paint(), one per way a frame reaches the texture.
    std::optional<std::string> attach_sources(const SourceImages& sources, const Canvas& canvas, PaintJob& run);
    void launch_kernels(const Frame& f, Pixel* out, const Canvas& canvas);
    void present_through_pixel_buffer(const Frame& f, Canvas& canvas);
    void present_through_texture(const Frame& f, Canvas& canvas);
    void present_staged(const Frame& f, Canvas& canvas);
    std::optional<std::string> paint_on_cpu(const Frame& f, Canvas& canvas);
    std::optional<std::string> paint_on_cuda(const Frame& f, Canvas& canvas);
    std::string user_code_advice() const;
    void collect_cuda_timings(bool wait);
    void timed_upload(const std::function<void()>& upload);

    std::unique_ptr<CudaState> cuda_;
    std::unique_ptr<CpuState> cpu_;
    Backend backend_ = Backend::Cpu;
    Present present_ = Present::Surface; // measured fastest on the H200 (results/)
    std::array<std::string, 3> why_not_;
    StageTimes times_;
    GlTimerRing upload_timer_;
    bool ran_both_variants_ = false;
    bool record_writers_ = false;
    std::unique_ptr<WriterRecord> writers_;
    OpOutputs outputs_;
    std::string user_kernel_source_;
};

} // namespace kc
