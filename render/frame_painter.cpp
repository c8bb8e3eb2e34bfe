#include "render/frame_painter.h"

#include <chrono>
#include <stdexcept>

#include "gpu/direct_write.h"
#include "gpu/registry.h"
#include "render/writer_record.h"

#ifdef KC_HAVE_CUDA
#include "render/cuda_gl_buffer.h"
#include "render/cuda_launches.h"
#include "render/present_interop.h"
#include "render/present_staged.h"
#endif

namespace kc {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

#ifdef KC_HAVE_CUDA
// The CUDA side: the launches every CUDA path shares and the paths, made on first use.
struct FramePainter::Cuda {
    CudaLaunches launches;
    std::unique_ptr<PresentPath> pixel_buffer, texture, surface, direct, staged;
    const PresentPath* current = nullptr; // the last frame's
    StageTimes stale;                     // what collect() drops

    explicit Cuda(int device) : launches(device) {}
    PresentPath& path(Backend backend, Present present) {
        PresentPath& p = make_path(backend, present);
        current = &p;
        return p;
    }
    PresentPath& make_path(Backend backend, Present present) {
        const cudaStream_t s = launches.stream();
        if (backend == Backend::CudaStaged) return made(staged, [&] { return std::make_unique<StagedPresent>(s); });
        if (present == Present::PixelBuffer)
            return made(pixel_buffer, [&] { return std::make_unique<PixelBufferPresent>(s); });
        if (present == Present::Texture)
            return made(texture, [&] { return std::make_unique<TexturePresent>(s, Present::Texture); });
        if (present == Present::Direct)
            return made(direct, [&] { return std::make_unique<TexturePresent>(s, Present::Direct); });
        return made(surface, [&] { return std::make_unique<TexturePresent>(s, Present::Surface); });
    }
    template <class Make>
    static PresentPath& made(std::unique_ptr<PresentPath>& p, Make make) {
        if (!p) p = make();
        return *p;
    }
    // A path's samples count only while the frames take it: the painter cleared the times when
    // the present or the route changed, and what was still in flight then (another path's copy,
    // the copy of a frame before a direct one) would show as a stage the frames no longer have.
    void collect(StageTimes& times, OpOutputs& outputs, bool wait, FrameRoute route) {
        launches.collect(times, outputs, wait);
        for (auto* p : {&pixel_buffer, &texture, &surface, &direct, &staged})
            if (*p) (*p)->collect_timings(p->get() == current && route != FrameRoute::Direct ? times : stale, wait);
        stale.clear();
    }
};

// One frame's kernels on the GPU, into the target the present path gives.
class FramePainter::CudaKernels : public FrameKernels {
public:
    CudaKernels(CudaLaunches& launches, const CudaFrame& frame, bool writes_texture)
        : launches_(launches), frame_(frame), writes_texture_(writes_texture) {}
    std::optional<std::string> run(const PaintTarget& target) override {
        launches_.launch(frame_, target);
        return std::nullopt;
    }
    bool writes_texture() const override { return writes_texture_; }

private:
    CudaLaunches& launches_;
    const CudaFrame& frame_;
    bool writes_texture_;
};
#else
struct FramePainter::Cuda {}; // never created without CUDA; complete so unique_ptr can delete it
#endif

// One frame's kernels on the CPU: the grid emulator, timed by the wall clock.
class FramePainter::CpuKernels : public FrameKernels {
public:
    CpuKernels(const CpuGridEmulator& emulator, const PaintJob& job, const ResolvedLaunch& resolved, OpOutputs& outputs,
               PixelRecord record, TimingStats& kernel)
        : emulator_(emulator), job_(job), resolved_(resolved), outputs_(outputs), record_(record), kernel_(kernel) {}
    std::optional<std::string> run(const PaintTarget& target) override {
        const auto t0 = Clock::now();
        if (auto refusal = emulator_.paint(job_, resolved_, target.pixels, &outputs_, record_)) return refusal;
        kernel_.add(micros_since(t0));
        outputs_.histogram_mismatches = -1;
        return std::nullopt;
    }

private:
    const CpuGridEmulator& emulator_;
    const PaintJob& job_;
    const ResolvedLaunch& resolved_;
    OpOutputs& outputs_;
    PixelRecord record_;
    TimingStats& kernel_;
};

FramePainter::FramePainter(std::optional<Backend> forced, std::optional<int> gpu)
    : writers_(std::make_unique<WriterRecord>()) {
#ifdef KC_HAVE_CUDA
    if (auto why = cuda_unavailable_reason()) {
        why_not_[0] = why_not_[1] = *why;
    } else {
        // CUDA must run on the GPU that owns the GL context, or interop fails (or copies).
        const GlGpus gl = cuda_devices_for_current_gl();
        gl_gpus_ = gl.devices;
        try {
            const GpuPairing pairing = pair_cuda_with_gl(gpu, gl, cuda_gpus());
            KC_CUDA_CHECK_THROW(cudaSetDevice(pairing.cuda_device));
            cuda_ = std::make_unique<Cuda>(pairing.cuda_device);
            why_not_[0] = pairing.interop ? gl_buffer_registration_error().value_or("") : pairing.interop_why_not;
        } catch (const std::exception& e) {
            why_not_[0] = why_not_[1] = e.what();
        }
    }
#else
    why_not_[0] = why_not_[1] = "this kcanvas was built without CUDA";
    (void)gpu;
#endif
    if (forced) {
        if (!set_backend(*forced))
            throw std::runtime_error(std::string("backend ") + std::string(backend_name(*forced)) +
                                     " is not available: " + unavailable_reason(*forced));
        return;
    }
    for (Backend b : kAllBackends)
        if (set_backend(b)) break;
}

FramePainter::~FramePainter() = default;

void FramePainter::set_present(Present p) {
    if (p != present_) times_.clear();
    present_ = p;
}

bool FramePainter::set_backend(Backend b) {
    if (!unavailable_reason(b).empty()) return false;
    if (b != backend_) times_.clear();
    backend_ = b;
    return true;
}

DeviceSummary FramePainter::device() const {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu) return {cuda_->launches.info().name, cuda_->launches.info().limits};
#endif
    return {"CPU grid emulator (" + std::to_string(emulator_.workers()) + " threads)", universal_limits()};
}

DeviceLimits FramePainter::limits() const {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu) return cuda_->launches.info().limits;
#endif
    return universal_limits();
}

int FramePainter::cuda_device() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return cuda_->launches.info().ordinal;
#endif
    return -1;
}

std::optional<std::string> FramePainter::paint(const PaintJob& job, Canvas& canvas, const SourceImages* sources,
                                               bool both_variants) {
    return paint(job, resolve_launch(job, limits()), canvas, sources, both_variants);
}

std::optional<std::string> FramePainter::paint(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                               const SourceImages* sources, bool both_variants) {
    if (job.params.width != canvas.width() || job.params.height != canvas.height())
        return "the paint job's size does not match the canvas";
    // Refused before anything is mapped: write-discard mapping may drop the buffer's old contents.
    if (resolved.refusal) return resolved.refusal;
    const OpInfo& info = op_registry()[job.op];
    const bool cpu = backend_ == Backend::Cpu;
#ifdef KC_HAVE_CUDA
    if (!cpu && info.user_code)
        if (auto e = cuda_->launches.user_kernel().launch_refusal(job.launch.block)) return e;
#endif
    // On the cpu backend the variants are one C++ implementation: there is nothing to compare.
    const bool two_variants = info.variants > 1 && both_variants && !cpu;
    if (two_variants != ran_both_variants_) {
        // The rows of the variants that stopped (or started) running would be stale.
        for (TimingStats& v : times_.variant) v.clear();
        ran_both_variants_ = two_variants;
    }
    PaintJob run = job;
    if (sources && sources->width() == canvas.width() && sources->height() == canvas.height())
        if (auto error = attach_sources(*sources, canvas, run)) return error;
    PresentTimers timers{times_, upload_timer_};
    if (cpu) {
#ifdef KC_HAVE_CUDA
        if (cuda_) cuda_->current = nullptr; // CUDA copies still in flight are no stage of the cpu's frames
#endif
        CpuKernels kernels(emulator_, run, resolved, outputs_,
                           writers_->for_cpu(record_writers_, canvas.width(), canvas.height()), times_.kernel);
        auto error = cpu_present_.present(kernels, canvas, timers);
        if (error && info.user_code) *error += user_code_advice();
        if (!error) route_ = FrameRoute::HostUpload, why_copied_.clear();
        return error;
    }
#ifdef KC_HAVE_CUDA
    const FrameRoute route = route_for(info, run, resolved);
    if (route != route_) times_.clear(); // the stages differ (no copy when direct, another kernel)
    auto error = faults_lose_the_context([&] {
        const CudaFrame frame{run, resolved, two_variants, *writers_, record_writers_};
        CudaKernels kernels(cuda_->launches, frame, route == FrameRoute::Direct);
        return cuda_->path(backend_, present_).present(kernels, canvas, timers);
    });
    if (!error) route_ = route;
    return error;
#else
    return "this kcanvas was built without CUDA";
#endif
}

// Which way this frame will reach the texture on a CUDA backend; for present direct, why_copied_
// says why a frame that could not write the texture took the copy.
FrameRoute FramePainter::route_for(const OpInfo& op, const PaintJob& job, const ResolvedLaunch& resolved) {
    why_copied_.clear();
    if (backend_ == Backend::CudaStaged) return FrameRoute::HostUpload;
    if (present_ == Present::PixelBuffer) return FrameRoute::GlUpload;
    if (present_ != Present::Direct) return FrameRoute::Copy;
    const auto refusal = direct_write_refusal(op, job, resolved, record_writers_);
    if (!refusal) return FrameRoute::Direct;
    why_copied_ = *refusal;
    return FrameRoute::Copy;
}

// What to do about the cpu backend refusing the user's kernel: only backends that work here.
std::string FramePainter::user_code_advice() const {
    std::string usable;
    for (Backend b : {Backend::CudaInterop, Backend::CudaStaged})
        if (unavailable_reason(b).empty()) usable += (usable.empty() ? "" : " or ") + std::string(backend_name(b));
    if (usable.empty()) return "; it needs an NVIDIA GPU, and none works here: " + why_not_[1];
    return "; choose the " + usable + " backend";
}

std::optional<std::string> FramePainter::attach_sources(const SourceImages& sources, const Canvas& canvas,
                                                        PaintJob& run) {
    if (backend_ == Backend::Cpu) {
        run.params.src_a = sources.fitted(0);
        run.params.src_b = sources.fitted(1);
        return std::nullopt;
    }
#ifdef KC_HAVE_CUDA
    return cuda_->launches.attach_sources(sources, canvas.pixel_count(), run);
#else
    (void)canvas;
    return std::nullopt;
#endif
}

KernelCompile FramePainter::compile_user_kernel(std::string_view source, std::string_view file_name) {
#ifdef KC_HAVE_CUDA
    if (cuda_) {
        KernelCompile compiled = cuda_->launches.compile_user_kernel(source, file_name);
        if (compiled.ok) times_.clear();
        return compiled;
    }
#else
    (void)source, (void)file_name;
#endif
    KernelCompile failed;
    failed.log = "live kernels need a CUDA GPU: " + why_not_[static_cast<int>(Backend::CudaStaged)];
    return failed;
}

bool FramePainter::has_user_kernel() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return cuda_->launches.user_kernel().kernel() != nullptr;
#endif
    return false;
}

const std::string& FramePainter::user_kernel_source() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return cuda_->launches.user_kernel().source();
#endif
    static const std::string none;
    return none;
}

std::optional<unsigned> FramePainter::sm_of_pixel(int x, int y) {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu)
        return faults_lose_the_context([&] { return writers_->read_cuda(x, y, cuda_->launches.stream()); });
#endif
    return writers_->read_cpu(x, y);
}

double FramePainter::copy_gbs() const {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu) return cuda_->launches.copy_gbs();
#endif
    return 0.0;
}

const DeviceInfo* FramePainter::device_info() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return &cuda_->launches.info();
#endif
    return nullptr;
}

void FramePainter::collect_timings(bool wait) {
#ifdef KC_HAVE_CUDA
    if (cuda_) faults_lose_the_context([&] { cuda_->collect(times_, outputs_, wait, route_); });
#endif
    // A whole canvas takes microseconds to upload; a software GL (Mesa's llvmpipe) answers some
    // GL_TIME_ELAPSED queries with (nearly) 0, having run the upload outside the query: no measurement.
    upload_timer_.collect(
        [this](double us) {
            if (us >= 1.0) times_.upload.add(us);
        },
        wait);
}

} // namespace kc
