#include "app/cli/ab_headless.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <vector>

#include "app/ab/ab_times.h"
#include "app/ab/pixel_diff.h"
#include "app/ab/split_picture.h"
#include "app/cli/headless.h"
#include "app/core/kernel_files.h"
#include "gpu/cpu_emulator.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/cpu_user_kernel.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/image_io.h"
#include "render/io/source_images.h"

namespace kc {

namespace {

// One side of the split, painting headless: on a GL context a FramePainter and a canvas of its
// own (its own kernel, its own event timers); without GL the CPU emulator, or the user's kernel
// in the sandbox, timed by the wall clock.
class HeadlessSide {
public:
    HeadlessSide(const Options& o, PaintJob job, KernelSource kernel, KernelMode mode, bool with_gl)
        : o_(o), job_(std::move(job)), kernel_(std::move(kernel)), mode_(mode) {
        if (with_gl) {
            painter_ = std::make_unique<FramePainter>(o.backend, o.gpu);
            painter_->set_present(o.present);
            painter_->set_kernel_time_limit(o.kernel_time_limit());
            canvas_ = std::make_unique<Canvas>(job_.params.width, job_.params.height);
        }
        user_kernel_.set_time_limit(o.kernel_time_limit());
        resolved_ = resolve_launch(job_, painter_ ? painter_->limits() : universal_limits());
    }

    // Compiles the side's kernel, if it runs one; the exit code when it does not compile.
    std::optional<int> start() {
        if (!user_code()) return std::nullopt;
        const KernelCompile c = painter_ ? painter_->compile_user_kernel(kernel_.source, kernel_.name, mode_)
                                         : user_kernel_.compile(kernel_.source, kernel_.name, mode_);
        return compiled(o_, kernel_, c);
    }

    std::optional<std::string> paint(int frame, const SourceImages& sources) {
        PaintJob job = job_;
        job.params.seconds = frame / 60.0f; // as a single run's frames
        if (painter_) {
            auto refused = painter_->paint(job, resolved_, *canvas_, &sources);
            painter_->collect_timings();
            return refused;
        }
        job.params.src_a = sources.fitted(0), job.params.src_b = sources.fitted(1);
        pixels_.resize(std::size_t(job.params.width) * job.params.height);
        const auto t0 = std::chrono::steady_clock::now();
        auto refused = user_code() ? user_kernel_.paint(job, resolved_, pixels_.data(), job.params.src_a,
                                                        job.params.src_b, nullptr, outputs_)
                                   : emulator_.paint(job, resolved_, pixels_.data(), &outputs_);
        if (!refused) times_.kernel.add(micros_since(t0));
        return refused;
    }

    void queue_after(const HeadlessSide& before) {
        if (painter_ && before.painter_) painter_->queue_after(*before.painter_);
    }
    void finish() {
        if (painter_) painter_->collect_timings(true);
    }
    const TimingStats& kernel_times() const { return painter_ ? painter_->times().kernel : times_.kernel; }
    std::vector<Pixel> pixels() const { return canvas_ ? canvas_->read_texture() : pixels_; }
    const PaintJob& job() const { return job_; }
    const ResolvedLaunch& resolved() const { return resolved_; }
    std::string backend() const { return painter_ ? std::string(backend_name(painter_->backend())) : "cpu"; }
    std::string device() const {
        return painter_ ? device_with_index(*painter_)
                        : fmt::format("CPU grid emulator ({} threads), no GL", emulator_.workers());
    }
    bool on_cpu() const { return !painter_ || painter_->backend() == Backend::Cpu; }

private:
    bool user_code() const { return op_registry()[job_.op].user_code; }
    const Options& o_;
    PaintJob job_;
    KernelSource kernel_;
    KernelMode mode_;
    ResolvedLaunch resolved_;
    std::unique_ptr<FramePainter> painter_;
    std::unique_ptr<Canvas> canvas_; // after the painter: its CUDA registrations go before the painter
    CpuGridEmulator emulator_;
    CpuUserKernel user_kernel_;
    std::vector<Pixel> pixels_;
    StageTimes times_;
    OpOutputs outputs_;
};

nlohmann::json side_json(const std::string& preset, const HeadlessSide& side) {
    const PaintJob& job = side.job();
    const OpInfo& op = op_registry()[job.op];
    const ResolvedLaunch& r = side.resolved();
    const SideTime t = side_time(side.kernel_times());
    nlohmann::json j = {{"preset", preset},
                        {"op", op.name},
                        {"block", to_string(r.launch.block)},
                        {"grid", to_string(r.grid)},
                        {"mapping", mapping_name(r.launch.mapping)},
                        {"pixels_per_thread", r.launch.pixels_per_thread},
                        {"view", view_name(job.view)},
                        {"kernel", stats_json(side.kernel_times())},
                        {"kernel_q1_us", t.q1_us},
                        {"kernel_q3_us", t.q3_us}};
    if (op.variants > 1) j["variant"] = op.variant_names[job.params.variant];
    return j;
}

void report(const Options& o, const HeadlessSide& a, const HeadlessSide& b, const PixelDiff& diff) {
    const AbRatio r = ab_ratio(side_time(a.kernel_times()), side_time(b.kernel_times()));
    const char* timed_by = a.on_cpu() ? "the CPU emulator's wall clock (not a GPU's time)" : "CUDA events";
    const std::string name_a = o.ab_presets.size() == 2 ? o.ab_presets[0] : o.preset_path;
    const std::string name_b = o.ab_presets.size() == 2 ? o.ab_presets[1] : "(the preset's side B)";
    if (o.json) {
        nlohmann::json j = {{"ab", true},
                            {"backend", a.backend()},
                            {"device", a.device()},
                            {"timed_by", timed_by},
                            {"frames", o.frames},
                            {"a", side_json(name_a, a)},
                            {"b", side_json(name_b, b)},
                            {"ratio_b_over_a", r.ratio},
                            {"ratio_low", r.low},
                            {"ratio_high", r.high},
                            {"within_noise", r.within_noise()},
                            {"diff_pixels", diff.differing},
                            {"compared_pixels", diff.compared},
                            {"identical", diff.identical()}};
        fmt::print("{}\n", j.dump(2));
        return;
    }
    fmt::print("A/B on {} ({}), {} frames each, timed by {}\n", a.backend(), a.device(), o.frames, timed_by);
    for (auto [label, side] : {std::pair{"A", &a}, {"B", &b}}) {
        const ResolvedLaunch& l = side->resolved();
        fmt::print("  {}  {:<14} block {:<7} grid {:<9} mapping {:<11} kernel {}\n", label,
                   op_registry()[side->job().op].name, to_string(l.launch.block), to_string(l.grid),
                   mapping_name(l.launch.mapping), side_time_text(side_time(side->kernel_times())));
    }
    fmt::print("  {}\n  pixels: {}\n", ratio_text(r), diff_text(diff));
}

// --out: the split as the window shows it (A left of the divider, B right), differing pixels marked.
bool write_split(const Options& o, const std::vector<Pixel>& a, const std::vector<Pixel>& b, const PixelDiff& diff) {
    if (o.out.empty()) return true;
    const SplitPicture pic = split_picture(a, b, o.width, o.height, *o.ab, o.ab->diff ? &diff : nullptr);
    if (auto e = write_image(o.out, pic.width, pic.height, pic.pixels)) {
        fmt::print(stderr, "kcanvas: {}\n", *e);
        return false;
    }
    return true;
}

// Both sides, frame by frame in turn; the exit code.
int run_sides(const Options& o, const SourceImages& sources, bool with_gl) {
    const KernelSource kernel_a = kernel_source(o);
    const KernelSource kernel_b{
        o.ab->b_kernel_source.empty() ? std::string(default_starter().source) : o.ab->b_kernel_source, "side-b.cu"};
    HeadlessSide a(o, job_from_options(o), kernel_a, o.kernel_mode, with_gl);
    HeadlessSide b(o, job_b_from_options(o), kernel_b, o.ab->b_kernel_mode, with_gl);
    for (HeadlessSide* side : {&a, &b})
        if (auto exit = side->start()) return *exit;
    for (int f = 0; f < o.frames; ++f)
        for (auto [label, side] : {std::pair{"A", &a}, {"B", &b}}) {
            side->queue_after(side == &a ? b : a); // on a GPU the two never overlap: each time is its own
            if (auto refused = side->paint(f, sources)) {
                fmt::print(stderr, "kcanvas: side {}'s launch refused: {}\n", label, *refused);
                return 2;
            }
        }
    if (with_gl) glFinish();
    a.finish(), b.finish();
    const std::vector<Pixel> pixels_a = a.pixels(), pixels_b = b.pixels();
    const PixelDiff diff = diff_pixels(pixels_a, pixels_b);
    report(o, a, b, diff);
    return write_split(o, pixels_a, pixels_b, diff) ? 0 : 2;
}

} // namespace

int run_ab_headless(const Options& options) {
    Options o = options;
    SourceImages sources;
    if (auto exit = load_inputs(o, sources)) return *exit;
    for (auto [label, job] : {std::pair{"A", job_from_options(o)}, {"B", job_b_from_options(o)}})
        if (auto refusal = resolve_launch(job, universal_limits()).refusal) {
            fmt::print(stderr, "kcanvas: side {}'s launch refused: {}\n", label, *refusal);
            return 2;
        }
    const bool user_code =
        op_registry()[job_from_options(o).op].user_code || op_registry()[job_b_from_options(o).op].user_code;
    const DeviceChoice device = choose_device(o, user_code);
    if (device.exit) return *device.exit;
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(device.cuda_device);
    } catch (const ContextError& e) {
        if (o.backend == Backend::Cpu || (!o.backend && device.cuda_device < 0)) return run_sides(o, sources, false);
        fmt::print(stderr, "kcanvas: cannot render headless: {}\n", e.what());
        return 1;
    }
    try {
        return run_sides(o, sources, true);
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
}

} // namespace kc
