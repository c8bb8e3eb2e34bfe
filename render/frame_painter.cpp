#include "render/frame_painter.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>

#include "gpu/direct_write.h"
#include "gpu/registry.h"
#include "render/frame_painter_cuda.h"
#include "render/writer_record.h"

namespace kc {

FramePainter::FramePainter(std::optional<Backend> forced, std::optional<int> gpu)
    : writers_(std::make_unique<WriterRecord>()) {
    painter_cuda::Started started = painter_cuda::start(gpu);
    cuda_ = std::move(started.cuda);
    why_not_[static_cast<int>(Backend::CudaInterop)] = std::move(started.interop_why_not);
    why_not_[static_cast<int>(Backend::CudaStaged)] = std::move(started.cuda_why_not);
    gl_gpus_ = std::move(started.gl_gpus);
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
    if (b != Backend::Cpu && cpu_worker_.busy()) cpu_worker_.take(); // its picture is the old backend's
    if (b != backend_) times_.clear(), timeline_.reset();            // the timeline's rows were the other backend's
    backend_ = b;
    return true;
}

DeviceSummary FramePainter::device() const {
    if (cuda_ && backend_ != Backend::Cpu) {
        const DeviceInfo& info = painter_cuda::device_info(*cuda_);
        return {info.name, info.limits};
    }
    return {"CPU grid emulator (" + std::to_string(emulator_.workers()) + " threads)", universal_limits()};
}

DeviceLimits FramePainter::limits() const {
    if (cuda_ && backend_ != Backend::Cpu) return painter_cuda::device_info(*cuda_).limits;
    return universal_limits();
}

int FramePainter::cuda_device() const {
    if (cuda_) return painter_cuda::device_info(*cuda_).ordinal;
    return -1;
}

std::optional<std::string> FramePainter::paint(const PaintJob& job, Canvas& canvas, const SourceImages* sources,
                                               bool both_variants) {
    return paint(job, resolve_launch(job, limits()), canvas, sources, both_variants);
}

std::optional<std::string> FramePainter::paint(const PaintJob& job, const ResolvedLaunch& resolved, Canvas& canvas,
                                               const SourceImages* sources, bool both_variants) {
    return paint_frame(job, resolved, canvas, sources, both_variants, std::nullopt);
}

std::optional<std::string> FramePainter::paint_responsive(const PaintJob& job, const ResolvedLaunch& resolved,
                                                          Canvas& canvas, const SourceImages* sources,
                                                          bool both_variants, std::chrono::milliseconds wait) {
    return paint_frame(job, resolved, canvas, sources, both_variants, wait);
}

// `wait`: how long a cpu frame is waited for (nullopt: until it is done).
std::optional<std::string> FramePainter::paint_frame(const PaintJob& job, const ResolvedLaunch& resolved,
                                                     Canvas& canvas, const SourceImages* sources, bool both_variants,
                                                     std::optional<std::chrono::milliseconds> wait) {
    if (job.params.width != canvas.width() || job.params.height != canvas.height())
        return "the paint job's size does not match the canvas";
    // Refused before anything is mapped: write-discard mapping may drop the buffer's old contents.
    if (resolved.refusal) return resolved.refusal;
    const OpInfo& info = op_registry()[job.op];
    const bool cpu = backend_ == Backend::Cpu;
    if (!cpu && info.user_code)
        if (auto e = painter_cuda::user_kernel_refusal(*cuda_, job.launch.block)) return e;
    // On the cpu backend the variants are one C++ implementation: there is nothing to compare.
    const bool two_variants = info.variants > 1 && both_variants && !cpu;
    if (two_variants != ran_both_variants_) {
        // The rows of the variants that stopped (or started) running would be stale.
        for (TimingStats& v : times_.variant) v.clear();
        ran_both_variants_ = two_variants;
    }
    timeline_this_frame_ = record_timeline_ || job.view == View::Start;
    if (cpu) return paint_on_cpu(job, resolved, canvas, sources, wait);
    PaintJob run = job;
    if (sources && sources->width() == canvas.width() && sources->height() == canvas.height())
        if (auto error = painter_cuda::attach_sources(*cuda_, *sources, canvas.pixel_count(), run)) return error;
    PresentTimers timers{times_, upload_timer_};
    const FrameRoute route = route_for(info, run, resolved);
    if (route != route_) times_.clear(); // the stages differ (no copy when direct, another kernel)
    const painter_cuda::Frame frame{
        .backend = backend_,
        .present = present_,
        .writes_texture = route == FrameRoute::Direct,
        .job = run,
        .resolved = resolved,
        .both_variants = two_variants,
        .writers = *writers_,
        .record_writers = record_writers_,
        .record_timeline = timeline_this_frame_,
    };
    auto error = painter_cuda::paint(*cuda_, frame, canvas, timers);
    if (!error) route_ = route;
    return error;
}

// A frame still painting from an earlier call lands first (the picture the user waited for),
// then this job's frame starts; a slow one lands in a later call.
std::optional<std::string> FramePainter::paint_on_cpu(const PaintJob& job, const ResolvedLaunch& resolved,
                                                      Canvas& canvas, const SourceImages* sources,
                                                      std::optional<std::chrono::milliseconds> wait) {
    if (cuda_) painter_cuda::leave_frames(*cuda_);
    if (cpu_worker_.busy()) {
        // Known to be slow: a short look, so the window's frames stay short while it paints.
        constexpr std::chrono::milliseconds kLook{10};
        std::optional<CpuFrame> earlier = take_cpu_frame(wait ? std::optional(std::min(*wait, kLook)) : std::nullopt);
        if (!earlier) return cpu_result_; // still painting: the last finished picture stays
        put_cpu_frame(std::move(*earlier), canvas);
    }
    if (!wait) { // waited for anyway: painted here, without a thread to start
        put_cpu_frame(paint_cpu_frame(emulator_, &cpu_kernel_, job, resolved, {record_writers_, timeline_this_frame_},
                                      cpu_inputs_for(sources, canvas), std::exchange(cpu_spare_pixels_, {})),
                      canvas);
        return cpu_result_;
    }
    cpu_worker_.start(job, resolved, {record_writers_, timeline_this_frame_}, cpu_inputs_for(sources, canvas),
                      std::exchange(cpu_spare_pixels_, {}));
    if (std::optional<CpuFrame> frame = take_cpu_frame(wait)) put_cpu_frame(std::move(*frame), canvas);
    return cpu_result_;
}

std::optional<CpuFrame> FramePainter::take_cpu_frame(std::optional<std::chrono::milliseconds> wait) {
    if (wait) return cpu_worker_.take(*wait);
    return cpu_worker_.take();
}

// On the GL thread: a finished cpu frame's pixels into the texture, its figures into the painter's.
void FramePainter::put_cpu_frame(CpuFrame frame, Canvas& canvas) {
    if (frame.refusal) {
        cpu_result_ = *frame.refusal;
        return; // the picture stays
    }
    cpu_result_.reset();
    if (frame.job.params.width != canvas.width() || frame.job.params.height != canvas.height())
        return; // painted for the canvas before it was resized
    times_.kernel.add(frame.micros);
    outputs_ = std::move(frame.outputs);
    writers_->keep_cpu(std::move(frame.writer_sm), canvas.width(), canvas.height());
    if (!frame.block_times.empty()) keep_cpu_timeline(frame);
    timed_upload(upload_timer_, [&] { canvas.upload_from_host(frame.pixels.data()); });
    cpu_spare_pixels_ = std::move(frame.pixels); // the next frame paints into it
    route_ = FrameRoute::HostUpload;
    why_copied_.clear();
}

void FramePainter::keep_cpu_timeline(CpuFrame& frame) {
    if (cpu_clock_step_ns_ < 0) cpu_clock_step_ns_ = steady_clock_step_ns(); // once: about a millisecond
    BlockTimeline t;
    t.source = TimelineSource::CpuWorkers;
    t.op = frame.job.op, t.block = frame.job.launch.block, t.grid = frame.grid;
    t.blocks = std::move(frame.block_times);
    t.resolution_ns = cpu_clock_step_ns_;
    timeline_ = std::move(t);
}

// The input images as the cpu frames read them: copied when they change, shared by the frames.
std::shared_ptr<const CpuInputs> FramePainter::cpu_inputs_for(const SourceImages* sources, const Canvas& canvas) {
    if (!sources || sources->width() != canvas.width() || sources->height() != canvas.height()) return nullptr;
    if (!cpu_inputs_ || cpu_inputs_generation_ != sources->generation()) {
        auto copy = std::make_shared<CpuInputs>();
        const std::size_t n = canvas.pixel_count();
        if (const Pixel* a = sources->fitted(0)) copy->a.assign(a, a + n);
        if (const Pixel* b = sources->fitted(1)) copy->b.assign(b, b + n);
        cpu_inputs_ = std::move(copy);
        cpu_inputs_generation_ = sources->generation();
    }
    return cpu_inputs_;
}

void FramePainter::queue_after(const FramePainter& before) {
    if (cuda_ && before.cuda_ && backend_ != Backend::Cpu && before.backend_ != Backend::Cpu)
        painter_cuda::queue_after(*cuda_, *before.cuda_);
}

std::optional<double> FramePainter::painting_seconds() const {
    if (!cpu_worker_.busy()) return std::nullopt;
    return cpu_worker_.seconds_painting();
}

void FramePainter::finish_painting(Canvas& canvas) {
    if (cpu_worker_.busy()) put_cpu_frame(cpu_worker_.take(), canvas);
}

// Which way this frame will reach the texture on a CUDA backend; for present direct, why_copied_
// says why a frame that could not write the texture took the copy.
FrameRoute FramePainter::route_for(const OpInfo& op, const PaintJob& job, const ResolvedLaunch& resolved) {
    why_copied_.clear();
    if (backend_ == Backend::CudaStaged) return FrameRoute::HostUpload;
    if (present_ == Present::PixelBuffer) return FrameRoute::GlUpload;
    if (present_ != Present::Direct) return FrameRoute::Copy;
    if (timeline_this_frame_ && !op.custom && !op.user_code) {
        why_copied_ = "the SM timeline records each block's SM and times";
        return FrameRoute::Copy;
    }
    const auto refusal = direct_write_refusal(op, job, resolved, record_writers_);
    if (!refusal) return FrameRoute::Direct;
    why_copied_ = *refusal;
    return FrameRoute::Copy;
}

KernelCompile FramePainter::compile_user_kernel(std::string_view source, std::string_view file_name, KernelMode mode) {
    if (backend_ == Backend::Cpu) {
        if (cpu_worker_.busy()) cpu_worker_.take(); // its frame ran the kernel before; the next paints anew
        KernelCompile compiled = cpu_kernel_.compile(source, file_name, mode);
        if (compiled.ok) times_.clear();
        return compiled;
    }
    if (cuda_) {
        KernelCompile compiled = painter_cuda::compile_user_kernel(*cuda_, source, file_name, mode);
        if (compiled.ok) times_.clear();
        return compiled;
    }
    KernelCompile failed;
    failed.mode = mode;
    failed.log = "live kernels need a CUDA GPU: " + why_not_[static_cast<int>(Backend::CudaStaged)];
    return failed;
}

bool FramePainter::has_user_kernel() const {
    if (backend_ == Backend::Cpu) return cpu_kernel_.loaded();
    if (cuda_) return painter_cuda::has_user_kernel(*cuda_);
    return false;
}

const std::string& FramePainter::user_kernel_source() const {
    if (backend_ == Backend::Cpu) return cpu_kernel_.source();
    if (cuda_) return painter_cuda::user_kernel_source(*cuda_);
    static const std::string none;
    return none;
}

std::optional<unsigned> FramePainter::sm_of_pixel(int x, int y) {
    if (cuda_ && backend_ != Backend::Cpu) return painter_cuda::sm_of_pixel(*cuda_, *writers_, x, y);
    return writers_->read_cpu(x, y);
}

std::optional<FramePainter::RecordedWord> FramePainter::user_kernel_writer(int x, int y) {
    if (!cuda_ || backend_ == Backend::Cpu) { // the sandboxed CPU kernel's record words (cpu_user_kernel.cpp)
        const std::optional<unsigned> word = writers_->read_cpu(x, y);
        if (!word) return std::nullopt;
        return RecordedWord{*word, std::nullopt};
    }
    const std::optional<unsigned> word = painter_cuda::sm_of_pixel(*cuda_, *writers_, x, y); // the record's word
    if (!word) return std::nullopt;
    return RecordedWord{*word, *word ? painter_cuda::user_kernel_block_sm(*cuda_, *word) : std::nullopt};
}

double FramePainter::copy_gbs() const {
    if (cuda_ && backend_ != Backend::Cpu) return painter_cuda::copy_gbs(*cuda_);
    return 0.0;
}

const DeviceInfo* FramePainter::device_info() const {
    if (cuda_) return &painter_cuda::device_info(*cuda_);
    return nullptr;
}

void FramePainter::collect_timings(bool wait) {
    if (cuda_) painter_cuda::collect(*cuda_, times_, outputs_, wait, route_);
    if (cuda_ && backend_ != Backend::Cpu)
        if (std::optional<BlockTimeline> t = painter_cuda::take_timeline(*cuda_, wait)) timeline_ = std::move(t);
    // A whole canvas takes microseconds to upload; a software GL (Mesa's llvmpipe) answers some
    // GL_TIME_ELAPSED queries with (nearly) 0, having run the upload outside the query: no measurement.
    upload_timer_.collect(
        [this](double us) {
            if (us >= 1.0) times_.upload.add(us);
        },
        wait);
}

} // namespace kc
