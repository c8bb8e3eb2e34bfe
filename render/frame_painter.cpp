#include "frame_painter.h"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cpu_emulator.h"
#include "named.h"
#include "registry.h"
#include "writer_record.h"

#ifdef KC_HAVE_CUDA
#include "cuda_device.h"
#include "cuda_gl_buffer.h"
#include "cuda_paint.h"
#include "cuda_raii.h"
#include "gpu_timer.h"
#endif

namespace kc {

namespace {
using Clock = std::chrono::steady_clock;
double micros_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}
} // namespace

std::string_view backend_name(Backend b) {
    switch (b) {
    case Backend::CudaInterop:
        return "cuda-interop";
    case Backend::CudaStaged:
        return "cuda-staged";
    case Backend::Cpu:
        return "cpu";
    }
    return "?";
}

std::optional<Backend> parse_backend(std::string_view name) { return find_by_name(name, kAllBackends, backend_name); }

std::string_view present_name(Present p) {
    switch (p) {
    case Present::PixelBuffer:
        return "pbo";
    case Present::Texture:
        return "texture";
    case Present::Surface:
        return "surface";
    }
    return "?";
}

std::optional<Present> parse_present(std::string_view name) { return find_by_name(name, kAllPresents, present_name); }

struct FramePainter::CpuState {
    CpuGridEmulator emulator;
    std::vector<Pixel> pixels;
};

#ifdef KC_HAVE_CUDA
struct FramePainter::CudaState {
    DeviceInfo info;
    CudaStream stream = CudaStream::create();
    GpuTimerRing kernel_timer, copy_timer;
    CudaGlBuffer registration; // cuda-interop, pbo: the canvas' pixel buffer, registered
    std::uint64_t registered_generation = 0;
    CudaGlImage texture_registration; // cuda-interop, texture: the canvas' texture, registered
    std::uint64_t texture_generation = 0;
    DeviceBuffer<Pixel> device_pixels; // cuda-staged and cuda-interop/texture: the kernel's output
    PinnedBuffer<Pixel> host_pixels;
    std::array<DeviceBuffer<Pixel>, SourceImages::kSlots> sources; // input images, fitted
    std::uint64_t sources_generation = 0;
    CudaOpWorkspace workspace;
    std::optional<UserKernel> user_kernel; // workspace.user_kernel points here
    std::array<GpuTimerRing, 2> variant_timer;
    PinnedBuffer<std::uint32_t> host_bins{2 * kHistogramBins}; // histogram read-back, both variants
    CudaEvent bins_ready = CudaEvent::create();
    bool bins_pending = false;
    int bins_variant = 0;   // the variant shown
    bool bins_both = false; // both variants ran: compare them

    explicit CudaState(int device) : info(query_device(device)) {}
};
#else
struct FramePainter::CudaState {}; // never created without CUDA; complete so unique_ptr can delete it
#endif

FramePainter::FramePainter(std::optional<Backend> forced)
    : cpu_(std::make_unique<CpuState>()), writers_(std::make_unique<WriterRecord>()) {
#ifdef KC_HAVE_CUDA
    if (auto why = cuda_unavailable_reason()) {
        why_not_[0] = why_not_[1] = *why;
    } else {
        // CUDA must run on the GPU that owns the GL context, or interop fails (or copies).
        const GlCudaDevice gl = cuda_device_for_current_gl();
        const int device = gl.device.value_or(0);
        try {
            KC_CUDA_CHECK_THROW(cudaSetDevice(device));
            cuda_ = std::make_unique<CudaState>(device);
        } catch (const std::exception& e) {
            why_not_[0] = why_not_[1] = e.what();
        }
        if (cuda_ && !gl.device) why_not_[0] = gl.why_not;
        if (cuda_ && gl.device) {
            // Registration fails on some set-ups (WSL2, hybrid laptops) even when the device matches.
            try {
                GlBuffer probe = GlBuffer::create();
                glBindBuffer(GL_PIXEL_UNPACK_BUFFER, probe.id());
                glBufferData(GL_PIXEL_UNPACK_BUFFER, 1024, nullptr, GL_STREAM_DRAW);
                glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
                CudaGlBuffer test(probe.id());
            } catch (const std::exception& e) {
                why_not_[0] = std::string("CUDA cannot register GL buffers here: ") + e.what();
            }
        }
    }
#else
    why_not_[0] = why_not_[1] = "this kcanvas was built without CUDA";
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
    if (cuda_ && backend_ != Backend::Cpu) return {cuda_->info.name, cuda_->info.limits};
#endif
    return {"CPU grid emulator (" + std::to_string(cpu_->emulator.workers()) + " threads)", universal_limits()};
}

DeviceLimits FramePainter::limits() const {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu) return cuda_->info.limits;
#endif
    return universal_limits();
}

int FramePainter::cuda_device() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return cuda_->info.ordinal;
#endif
    return -1;
}

// One frame's checked job, as the backends' pieces below take it.
struct FramePainter::Frame {
    PaintJob run;        // the job, with the backend's pointers to the input images
    const OpInfo& info;  // its operation
    DeviceLimits limits; // of the device that runs it
    bool two_variants;   // run both kernels of a two-variant op (their times side by side)
};

std::optional<std::string> FramePainter::paint(const PaintJob& job, Canvas& canvas, const SourceImages* sources,
                                               bool both_variants) {
    if (job.params.width != canvas.width() || job.params.height != canvas.height())
        return "the paint job's size does not match the canvas";
    // Check before anything is mapped: write-discard mapping may drop the buffer's old contents.
    const DeviceLimits limits = this->limits(); // no name string built per frame
    PaintPlan plan = plan_paint(job, universal_limits());
    if (!plan.error) plan = plan_paint(job, limits);
    if (plan.error) return plan.error;

    const OpInfo& info = op_registry()[job.op];
    // On the cpu backend both variants are one C++ implementation: there is nothing to compare.
    Frame frame{job, info, limits, info.variants == 2 && both_variants && backend_ != Backend::Cpu};
    if (frame.two_variants != ran_both_variants_) {
        // The rows of the variant that stopped (or started) running would be stale.
        times_.variant[0].clear(), times_.variant[1].clear();
        ran_both_variants_ = frame.two_variants;
    }
    if (sources && sources->width() == canvas.width() && sources->height() == canvas.height())
        if (auto error = attach_sources(*sources, canvas, frame.run)) return error;

    if (backend_ == Backend::Cpu) {
        auto error = paint_on_cpu(frame, canvas);
        if (error && info.user_code) *error += user_code_advice();
        return error;
    }
    return paint_on_cuda(frame, canvas);
}

// What to do about the cpu backend refusing the user's kernel: only backends that work here.
std::string FramePainter::user_code_advice() const {
    std::string usable;
    for (Backend b : {Backend::CudaInterop, Backend::CudaStaged})
        if (unavailable_reason(b).empty()) usable += (usable.empty() ? "" : " or ") + std::string(backend_name(b));
    if (usable.empty()) return "; it needs an NVIDIA GPU, and none works here: " + why_not_[1];
    return "; choose the " + usable + " backend";
}

#ifdef KC_HAVE_CUDA
namespace {
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
} // namespace

std::optional<std::string> FramePainter::paint_on_cuda(const Frame& f, Canvas& canvas) {
    if (f.info.user_code) {
        // Refused before anything is mapped, as plan_paint's refusals are.
        if (!cuda_->user_kernel) return std::string(kNoUserKernel);
        if (auto e = cuda_->user_kernel->launch_error(f.run.launch.block)) return e;
    }
    return faults_lose_the_context([&]() -> std::optional<std::string> {
        if (backend_ == Backend::CudaStaged)
            present_staged(f, canvas);
        else if (present_ == Present::PixelBuffer)
            present_through_pixel_buffer(f, canvas);
        else
            present_through_texture(f, canvas);
        return std::nullopt;
    });
}

KernelCompile FramePainter::compile_user_kernel(std::string_view source, std::string_view file_name) {
    if (!cuda_) {
        KernelCompile failed;
        failed.log = "live kernels need a CUDA GPU: " + why_not_[static_cast<int>(Backend::CudaStaged)];
        return failed;
    }
    CudaState& c = *cuda_;
    KernelCompile compiled = kc::compile_user_kernel(source, {c.info.cc_major, c.info.cc_minor}, file_name);
    if (!compiled.ok) return compiled;
    try {
        UserKernel loaded = UserKernel::load(compiled);
        // Frames still in flight may run the old kernel: let them finish before it is unloaded.
        faults_lose_the_context([&] { KC_CUDA_CHECK_THROW(cudaStreamSynchronize(c.stream.get())); });
        c.workspace.user_kernel = nullptr;
        c.user_kernel = std::move(loaded);
        c.workspace.user_kernel = &*c.user_kernel;
        user_kernel_source_ = std::string(source);
        times_.clear();
    } catch (const CudaContextLost&) {
        throw;
    } catch (const std::exception& e) {
        compiled.ok = false;
        compiled.log += (compiled.log.empty() ? "" : "\n") + std::string(e.what());
    }
    return compiled;
}

bool FramePainter::has_user_kernel() const { return cuda_ && cuda_->user_kernel.has_value(); }
#else
std::optional<std::string> FramePainter::paint_on_cuda(const Frame&, Canvas&) {
    return "this kcanvas was built without CUDA";
}

KernelCompile FramePainter::compile_user_kernel(std::string_view, std::string_view) {
    KernelCompile failed;
    failed.log = "live kernels need a CUDA GPU: this kcanvas was built without CUDA";
    return failed;
}

bool FramePainter::has_user_kernel() const { return false; }
#endif

void FramePainter::timed_upload(const std::function<void()>& upload) {
    const bool timed = upload_timer_.begin();
    upload();
    if (timed) upload_timer_.end();
}

std::optional<std::string> FramePainter::attach_sources(const SourceImages& sources, const Canvas& canvas,
                                                        PaintJob& run) {
    if (backend_ == Backend::Cpu) {
        run.params.src_a = sources.fitted(0);
        run.params.src_b = sources.fitted(1);
        return std::nullopt;
    }
#ifdef KC_HAVE_CUDA
    CudaState& c = *cuda_;
    bool sizes_match = true;
    for (int slot = 0; slot < SourceImages::kSlots; ++slot)
        if (sources.fitted(slot) && c.sources[slot].size() != canvas.pixel_count()) sizes_match = false;
    if (c.sources_generation != sources.generation() || !sizes_match) {
        // Upload once per change. An image too large for the GPU's memory is refused here.
        try {
            for (int slot = 0; slot < SourceImages::kSlots; ++slot) {
                c.sources[slot] = DeviceBuffer<Pixel>();
                if (!sources.fitted(slot)) continue;
                c.sources[slot] = DeviceBuffer<Pixel>(canvas.pixel_count());
                KC_CUDA_CHECK_THROW(cudaMemcpyAsync(c.sources[slot].data(), sources.fitted(slot),
                                                    c.sources[slot].bytes(), cudaMemcpyHostToDevice, c.stream.get()));
            }
            KC_CUDA_CHECK_THROW(cudaStreamSynchronize(c.stream.get())); // the host copy may change after this
            c.sources_generation = sources.generation();
        } catch (const CudaError& e) {
            if (is_sticky_error(e.code())) throw CudaContextLost(e.what());
            (void)cudaGetLastError(); // a failed cudaMalloc is not sticky: clear it so later checks don't see it
            for (auto& b : c.sources) b = DeviceBuffer<Pixel>();
            c.sources_generation = 0;
            return std::string("the input images do not fit in GPU memory: ") + e.what();
        }
    }
    run.params.src_a = c.sources[0].size() ? c.sources[0].data() : nullptr;
    run.params.src_b = c.sources[1].size() ? c.sources[1].data() : nullptr;
#else
    (void)canvas;
#endif
    return std::nullopt;
}

#ifdef KC_HAVE_CUDA
// The kernels of one frame: the other variant first (timed only), then the selected one.
void FramePainter::launch_kernels(const Frame& f, Pixel* out, const Canvas& canvas) {
    CudaState& c = *cuda_;
    const PaintJob& run = f.run;
    if (f.two_variants) {
        PaintJob other = run;
        other.params.variant = 1 - run.params.variant;
        const bool t = c.variant_timer[other.params.variant].begin(c.stream.get());
        cuda_paint(other, f.limits, out, c.stream.get(), c.workspace);
        if (t) c.variant_timer[other.params.variant].end(c.stream.get());
    }
    const bool timed = c.kernel_timer.begin(c.stream.get());
    const bool vt = f.info.variants == 2 && c.variant_timer[run.params.variant].begin(c.stream.get());
    // The user's code decides which thread writes which pixel: no writer record for it.
    const bool record = record_writers_ && !f.info.user_code;
    cuda_paint(run, f.limits, out, c.stream.get(), c.workspace,
               writers_->for_cuda(record, canvas.width(), canvas.height(), c.stream.get()));
    if (vt) c.variant_timer[run.params.variant].end(c.stream.get());
    if (timed) c.kernel_timer.end(c.stream.get());
    if (f.info.makes_histogram) {
        for (int v = 0; v < 2; ++v)
            if (c.workspace.bins[v].size() == kHistogramBins && (f.two_variants || v == run.params.variant))
                KC_CUDA_CHECK_THROW(cudaMemcpyAsync(c.host_bins.data() + v * kHistogramBins, c.workspace.bins[v].data(),
                                                    c.workspace.bins[v].bytes(), cudaMemcpyDeviceToHost,
                                                    c.stream.get()));
        KC_CUDA_CHECK_THROW(cudaEventRecord(c.bins_ready.get(), c.stream.get()));
        c.bins_pending = true, c.bins_variant = run.params.variant, c.bins_both = f.two_variants;
    }
}

// pbo: the kernels write the registered GL pixel buffer, then GL uploads it into the texture.
void FramePainter::present_through_pixel_buffer(const Frame& f, Canvas& canvas) {
    CudaState& c = *cuda_;
    if (!c.registration || c.registered_generation != canvas.generation()) {
        c.registration = CudaGlBuffer(); // unregister the old buffer first
        c.registration = CudaGlBuffer(canvas.pixel_buffer());
        c.registered_generation = canvas.generation();
    }
    const auto t_map = Clock::now();
    std::optional<Clock::time_point> t_unmap;
    {
        ScopedCudaMap mapped(c.registration, c.stream.get());
        times_.map.add(micros_since(t_map));
        launch_kernels(f, mapped.pixels(), canvas);
        t_unmap = Clock::now();
    }
    times_.unmap.add(micros_since(*t_unmap));
    timed_upload([&] { canvas.upload_from_pixel_buffer(); });
}

// texture / surface: the kernels write CUDA memory, copied into the registered GL texture while
// it is mapped; GL uploads nothing.
void FramePainter::present_through_texture(const Frame& f, Canvas& canvas) {
    CudaState& c = *cuda_;
    if (c.device_pixels.size() != canvas.pixel_count()) c.device_pixels = DeviceBuffer<Pixel>(canvas.pixel_count());
    if (!c.texture_registration || c.texture_generation != canvas.generation()) {
        c.texture_registration = CudaGlImage(); // unregister the old texture first
        c.texture_registration = CudaGlImage(canvas.texture());
        c.texture_generation = canvas.generation();
    }
    launch_kernels(f, c.device_pixels.data(), canvas);
    const auto t_map = Clock::now();
    std::optional<Clock::time_point> t_unmap;
    {
        ScopedCudaImageMap mapped(c.texture_registration, c.stream.get());
        times_.map.add(micros_since(t_map));
        const bool timed = c.copy_timer.begin(c.stream.get());
        if (present_ == Present::Texture) {
            const std::size_t row = std::size_t(canvas.width()) * sizeof(Pixel);
            KC_CUDA_CHECK_THROW(cudaMemcpy2DToArrayAsync(mapped.array(), 0, 0, c.device_pixels.data(), row, row,
                                                         canvas.height(), cudaMemcpyDeviceToDevice, c.stream.get()));
        } else {
            cuda_copy_to_surface(c.device_pixels.data(), canvas.width(), canvas.height(), mapped.surface(),
                                 c.stream.get());
        }
        if (timed) c.copy_timer.end(c.stream.get());
        t_unmap = Clock::now();
    }
    times_.unmap.add(micros_since(*t_unmap));
    // A byte copy leaves B,G,R,A bytes in RGBA8 storage; the surface kernel swizzles.
    if (present_ == Present::Texture)
        canvas.mark_texture_written_raw();
    else
        canvas.mark_texture_written_rgba();
}

// cuda-staged: the tutorials' round trip, device memory -> pinned host memory -> texture.
void FramePainter::present_staged(const Frame& f, Canvas& canvas) {
    CudaState& c = *cuda_;
    // The texture present paths share device_pixels: size each buffer on its own.
    if (c.device_pixels.size() != canvas.pixel_count()) c.device_pixels = DeviceBuffer<Pixel>(canvas.pixel_count());
    if (c.host_pixels.size() != canvas.pixel_count()) c.host_pixels = PinnedBuffer<Pixel>(canvas.pixel_count());
    launch_kernels(f, c.device_pixels.data(), canvas);
    const bool timed = c.copy_timer.begin(c.stream.get());
    KC_CUDA_CHECK_THROW(cudaMemcpyAsync(c.host_pixels.data(), c.device_pixels.data(), c.device_pixels.bytes(),
                                        cudaMemcpyDeviceToHost, c.stream.get()));
    if (timed) c.copy_timer.end(c.stream.get());
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(c.stream.get())); // the host needs the pixels now
    timed_upload([&] { canvas.upload_from_host(c.host_pixels.data()); });
}
#endif

std::optional<std::string> FramePainter::paint_on_cpu(const Frame& f, Canvas& canvas) {
    cpu_->pixels.resize(canvas.pixel_count());
    const auto t0 = Clock::now();
    if (auto error = cpu_->emulator.paint(f.run, cpu_->pixels.data(), &outputs_,
                                          writers_->for_cpu(record_writers_, canvas.width(), canvas.height())))
        return error;
    times_.kernel.add(micros_since(t0));
    outputs_.histogram_mismatches = -1;
    timed_upload([&] { canvas.upload_from_host(cpu_->pixels.data()); });
    return std::nullopt;
}

std::optional<unsigned> FramePainter::sm_of_pixel(int x, int y) {
#ifdef KC_HAVE_CUDA
    if (cuda_ && backend_ != Backend::Cpu) return writers_->read_cuda(x, y, cuda_->stream.get());
#endif
    return writers_->read_cpu(x, y);
}

const DeviceInfo* FramePainter::device_info() const {
#ifdef KC_HAVE_CUDA
    if (cuda_) return &cuda_->info;
#endif
    return nullptr;
}

void FramePainter::collect_timings(bool wait) {
#ifdef KC_HAVE_CUDA
    if (cuda_) faults_lose_the_context([&] { collect_cuda_timings(wait); });
#endif
    // A whole canvas takes microseconds to upload; a software GL (Mesa's llvmpipe) answers some
    // GL_TIME_ELAPSED queries with (nearly) 0, having run the upload outside the query: no measurement.
    upload_timer_.collect(
        [this](double us) {
            if (us >= 1.0) times_.upload.add(us);
        },
        wait);
}

#ifdef KC_HAVE_CUDA
void FramePainter::collect_cuda_timings(bool wait) {
    {
        auto add_kernel = [this](double us) { times_.kernel.add(us); };
        auto add_copy = [this](double us) { times_.copy.add(us); };
        auto add_v0 = [this](double us) { times_.variant[0].add(us); };
        auto add_v1 = [this](double us) { times_.variant[1].add(us); };
        if (wait) {
            cuda_->kernel_timer.drain(add_kernel);
            cuda_->copy_timer.drain(add_copy);
            cuda_->variant_timer[0].drain(add_v0);
            cuda_->variant_timer[1].drain(add_v1);
            if (cuda_->bins_pending) KC_CUDA_CHECK_THROW(cudaEventSynchronize(cuda_->bins_ready.get()));
        } else {
            cuda_->kernel_timer.collect(add_kernel);
            cuda_->copy_timer.collect(add_copy);
            cuda_->variant_timer[0].collect(add_v0);
            cuda_->variant_timer[1].collect(add_v1);
        }
        CudaState& c = *cuda_;
        if (c.bins_pending && cudaEventQuery(c.bins_ready.get()) == cudaSuccess) {
            c.bins_pending = false;
            const std::uint32_t* shown = c.host_bins.data() + c.bins_variant * kHistogramBins;
            for (int h = 0; h < 4; ++h)
                for (int i = 0; i < 256; ++i) outputs_.histogram[h][i] = shown[h * 256 + i];
            outputs_.has_histogram = true;
            outputs_.histogram_mismatches = -1;
            if (c.bins_both) {
                outputs_.histogram_mismatches = 0;
                for (int i = 0; i < kHistogramBins; ++i)
                    outputs_.histogram_mismatches += c.host_bins.data()[i] != c.host_bins.data()[kHistogramBins + i];
            }
        }
    }
}
#else
void FramePainter::collect_cuda_timings(bool) {}
#endif

} // namespace kc
