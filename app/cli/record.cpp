#include "app/cli/record.h"

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "app/cli/options.h"
#include "app/core/kernel_files.h"
#include "app/record/recorder.h"
#include "app/ui/overlay/record_render.h"
#include "gpu/cpu_emulator.h"
#include "gpu/registry.h"
#include "render/gl_context.h"
#include "render/io/source_images.h"
#ifdef KC_HAVE_CUDA
#include "gpu/cuda_device.h"
#endif

namespace kc {

namespace {

// Ctrl+C, kill or a closed terminal ends the recording cleanly: the temporary file goes, nothing is
// left half-written. The signal that did, or 0.
std::atomic<int> g_interrupted{0};
void on_interrupt(int signal) { g_interrupted = signal; }
constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The signals above end the recording cleanly while it runs; restored as they were when it ends.
class CleanEnding {
public:
    CleanEnding() {
        struct sigaction interrupt {};
        interrupt.sa_handler = &on_interrupt;
        for (std::size_t i = 0; i < std::size(kEndingSignals); ++i) sigaction(kEndingSignals[i], &interrupt, &old_[i]);
    }
    ~CleanEnding() {
        for (std::size_t i = 0; i < std::size(kEndingSignals); ++i) sigaction(kEndingSignals[i], &old_[i], nullptr);
    }
    CleanEnding(const CleanEnding&) = delete;
    CleanEnding& operator=(const CleanEnding&) = delete;

private:
    struct sigaction old_[std::size(kEndingSignals)]{};
};

// Flags into a plan for the picture `o` describes. Exit code, or 0.
int make_plan(const RecordFlags& f, const Options& o, RecordPlan& plan) {
    auto fail = [](const std::string& m) {
        fmt::print(stderr, "kcanvas record: {}\n", m);
        return 2;
    };
    plan.job = job_from_options(o);
    plan.fps = f.fps;
    if (!(f.fps >= 1 && f.fps <= 240)) return fail(fmt::format("--fps {:g} is not from 1 to 240", f.fps));
    plan.frames = f.frames > 0 ? f.frames : int(std::lround((f.seconds > 0 ? f.seconds : 5.0) * f.fps));
    plan.frames = std::max(1, plan.frames);
    plan.step = f.step, plan.blocks_per_second = f.blocks_per_second;
    plan.clock.speed = f.speed, plan.start = f.start;
    for (const std::string& text : f.sweeps) {
        ParamSweep s;
        if (auto e = parse_sweep(text, s)) return fail(*e);
        plan.sweeps.push_back(s);
    }
    if (f.center_to.size() == 2) {
        double xy[2];
        for (int i = 0; i < 2; ++i) {
            char* end = nullptr;
            xy[i] = std::strtod(f.center_to[i].c_str(), &end);
            if (f.center_to[i].empty() || *end || !std::isfinite(xy[i]) || std::abs(xy[i]) > 1000)
                return fail(fmt::format("--center-to '{}' is not a number from -1000 to 1000", f.center_to[i]));
        }
        plan.center_to = std::pair{xy[0], xy[1]};
        bool zooms = false;
        for (const ParamSweep& s : plan.sweeps) zooms |= s.name == "zoom";
        if (!zooms) return fail("--center-to moves the centre of a zoom: add --sweep zoom=FROM:TO");
    }
    RecordOverlays& ov = plan.overlays;
    ov.outlines = f.outlines, ov.tint = !f.no_tint, ov.legend = !f.no_legend, ov.caption = !f.no_caption;
    if (f.inspect.size() == 2) {
        char *end_x = nullptr, *end_y = nullptr;
        const long x = std::strtol(f.inspect[0].c_str(), &end_x, 10), y = std::strtol(f.inspect[1].c_str(), &end_y, 10);
        if (f.inspect[0].empty() || f.inspect[1].empty() || *end_x || *end_y || x < 0 || y < 0 || x >= o.width ||
            y >= o.height)
            return fail(fmt::format("--inspect {},{} is not a pixel of the {}x{} canvas", f.inspect[0], f.inspect[1],
                                    o.width, o.height));
        ov.inspect = std::pair{int(x), int(y)};
    }
    if (f.plain) ov = RecordOverlays{false, false, false, false, std::nullopt};
    const OpInfo& op = op_registry()[plan.job.op];
    if (plan.step && (op.custom || op.user_code))
        return fail(fmt::format("--step follows kcanvas' own launch; {} paints with {}", op.name,
                                op.custom ? "its own kernels" : "your kernel's own indexing"));
    const bool twice_as_wide = o.ab && o.ab->layout == AbLayout::SideBySide;
    if (auto e = record_output_error(f.out, twice_as_wide ? 2 * o.width : o.width, o.height, f.fps)) return fail(*e);
    if (auto e = read_only_refusal(f.out, f.force)) return fail("--out " + *e);
    if (auto e = plan_error(plan)) return fail(*e);
    return 0;
}

// The progress bar, redrawn in place on a terminal; nothing on a pipe or file.
void show_progress(const Recorder& r, bool tty) {
    if (!tty) return;
    constexpr int kWidth = 30;
    const int filled = r.work_total() ? r.work_done() * kWidth / r.work_total() : 0;
    fmt::print(stderr, "\r[{}{}] {}\033[K", std::string(filled, '#'), std::string(kWidth - filled, '.'),
               r.progress_text());
}

// The split's frames (render_split_frame): A's by `a`, B's by `b`.
Recorder::Render split_render(const AbSplit& split, LayersRender a, LayersRender b) {
    return [split, a, b](const RecordFrame& frame, std::vector<Pixel>& out) {
        return render_split_frame(split, frame, a, b, out);
    };
}

// The recording's frame width: the canvas', or twice it for a split side by side.
int frame_width(const RecordPlan& plan, const Options& o) {
    return o.ab && o.ab->layout == AbLayout::SideBySide ? 2 * plan.job.params.width : plan.job.params.width;
}

int record(const RecordFlags& f, const RecordPlan& plan, Recorder::Render render, int width) {
    auto opened = open_encoder({f.out, width, plan.job.params.height, plan.fps, plan.frames});
    if (auto* e = std::get_if<std::string>(&opened)) {
        fmt::print(stderr, "kcanvas record: {}\n", *e);
        return 2;
    }
    Recorder recorder(plan, std::move(std::get<std::unique_ptr<FrameEncoder>>(opened)), std::move(render));
    const bool tty = ::isatty(2) == 1;
    {
        const CleanEnding clean_ending;
        while (recorder.step(std::chrono::milliseconds(100))) {
            show_progress(recorder, tty);
            if (g_interrupted) recorder.cancel();
        }
    }
    if (tty) fmt::print(stderr, "\r\033[K");
    if (!recorder.succeeded()) {
        fmt::print(stderr, "kcanvas record: {}; nothing was written\n", recorder.error().value_or("failed"));
        // A file that could not be written is exit 2, as for --headless --out (README); a frame that
        // could not be painted is 1; a signal, 128 + its number, as the shell reports it.
        if (g_interrupted) return 128 + g_interrupted;
        return recorder.output_failed() ? 2 : 1;
    }
    std::error_code ec;
    const auto bytes = std::filesystem::is_directory(f.out, ec) ? 0 : std::filesystem::file_size(f.out, ec);
    fmt::print(stderr, "kcanvas record: {} frames {}x{} at {:g} fps to {}{} in {:.1f} s ({:.1f} ms a frame)\n",
               plan.frames, width, plan.job.params.height, plan.fps, f.out,
               bytes ? fmt::format(" ({:.2f} MB)", bytes / 1e6) : "", recorder.elapsed_seconds(),
               1e3 * recorder.elapsed_seconds() / plan.frames);
    return 0;
}

// A painter on the GL context with `kernel` compiled when `op` is the user's; nullptr (and the
// compiler's log said) when it does not compile.
std::unique_ptr<FramePainter> painter_for(const Options& o, int op, const std::string& kernel, KernelMode mode,
                                          const char* whose) {
    auto painter = std::make_unique<FramePainter>(o.backend, o.gpu);
    painter->set_kernel_time_limit(o.kernel_time_limit());
    painter->set_present(o.present);
    if (!op_registry()[op].user_code) return painter;
    const std::string source = kernel.empty() ? std::string(default_starter().source) : kernel;
    const KernelCompile k = painter->compile_user_kernel(source, "kernel.cu", mode);
    if (k.ok) return painter;
    fmt::print(stderr, "kcanvas record: {} does not compile:\n{}\n", whose, k.log);
    return nullptr;
}

int record_with_gl(const RecordFlags& f, const RecordPlan& plan, const Options& o, SourceImages& sources) {
    const int w = plan.job.params.width, h = plan.job.params.height;
    const auto painter = painter_for(o, plan.job.op, o.kernel_source, o.kernel_mode, "your kernel");
    if (!painter) return 2;
    RecordRenderer renderer(*painter, w, h);
    Recorder::Render render = [&](const RecordFrame& frame, std::vector<Pixel>& out) {
        return renderer.render(frame, plan.overlays, &sources, out);
    };
    if (!o.ab) return record(f, plan, render, w);
    const auto painter_b = painter_for(o, o.ab->b.op, o.ab->b_kernel_source, o.ab->b_kernel_mode, "side B's kernel");
    if (!painter_b) return 2;
    RecordRenderer renderer_b(*painter_b, w, h);
    const RecordOverlays overlays_b = side_b_overlays(plan.overlays, o.ab->layout);
    const LayersRender layers_a = [&](const RecordFrame& frame, FrameLayers& out) {
        return renderer.render_layers(frame, plan.overlays, &sources, out);
    };
    const LayersRender layers_b = [&](const RecordFrame& frame, FrameLayers& out) {
        return renderer_b.render_layers(frame, overlays_b, &sources, out);
    };
    return record(f, plan, split_render(*o.ab, layers_a, layers_b), frame_width(plan, o));
}

// No GL at all (no EGL): the CPU emulator paints, and only the plain canvas can be recorded.
Recorder::Render emulator_render(SourceImages& sources) {
    auto emulator = std::make_shared<CpuGridEmulator>();
    return [emulator, &sources](const RecordFrame& frame, std::vector<Pixel>& out) {
        PaintJob job = frame.job;
        job.params.src_a = sources.fitted(0), job.params.src_b = sources.fitted(1);
        out.assign(std::size_t(job.params.width) * job.params.height, Pixel{});
        OpOutputs outputs;
        if (auto e = emulator->paint(job, out.data(), &outputs))
            return std::optional<std::string>("launch refused: " + *e);
        return std::optional<std::string>();
    };
}

// A render of the canvas alone, as layers with nothing over it.
LayersRender canvas_only(Recorder::Render render) {
    return [render](const RecordFrame& frame, FrameLayers& out) {
        out = FrameLayers{};
        return render(frame, out.canvas);
    };
}

int record_without_gl(const RecordFlags& f, const RecordPlan& plan, const Options& o, SourceImages& sources) {
    if (!o.ab) return record(f, plan, emulator_render(sources), plan.job.params.width);
    return record(f, plan,
                  split_render(*o.ab, canvas_only(emulator_render(sources)), canvas_only(emulator_render(sources))),
                  frame_width(plan, o));
}

// The picture's images loaded and fitted; without --size the canvas takes image A's size. An exit
// code when one cannot be read.
std::optional<int> load_images(Options& o, SourceImages& sources) {
    for (auto [slot, path] : {std::pair{0, &o.image}, {1, &o.image2}}) {
        if (path->empty()) continue;
        if (auto e = sources.load(slot, *path)) {
            fmt::print(stderr, "kcanvas record: --image{}: {}\n", slot ? "2" : "", *e);
            return 2;
        }
    }
    if (sources.loaded(0) && !o.size_given) o.width = sources.original(0).width, o.height = sources.original(0).height;
    sources.fit(o.width, o.height);
    return std::nullopt;
}

// Renders the plan through EGL (CUDA on --gpu's device, or the emulator), or without GL when only
// the plain canvas is wanted on the CPU.
int record_plan(const RecordFlags& f, const RecordPlan& plan, const Options& o, SourceImages& sources) {
    int cuda_device = -1;
#ifdef KC_HAVE_CUDA
    if (o.backend != Backend::Cpu && !cuda_unavailable_reason()) cuda_device = o.gpu.value_or(0);
#endif
    // The user's kernel records on the cpu backend too: compiled for the CPU, run in the sandbox.
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(cuda_device);
    } catch (const ContextError& e) {
        const bool cpu = o.backend == Backend::Cpu || (!o.backend && cuda_device < 0);
        const bool user_code = op_registry()[plan.job.op].user_code || (o.ab && op_registry()[o.ab->b.op].user_code);
        if (cpu && !plan.overlays.any() && !user_code) return record_without_gl(f, plan, o, sources);
        fmt::print(stderr, "kcanvas record: cannot render headless: {}{}\n", e.what(),
                   cpu ? " (--plain --backend cpu records the canvas alone without OpenGL)" : "");
        return 1;
    }
    try {
        return record_with_gl(f, plan, o, sources);
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas record: {}\n", e.what());
        return 1;
    }
}

} // namespace

int run_record(const RecordFlags& f, const Options& picture) {
    Options o = picture;
    SourceImages sources;
    if (const auto code = load_images(o, sources)) return *code;
    RecordPlan plan;
    if (const int code = make_plan(f, o, plan)) return code;
    return record_plan(f, plan, o, sources);
}

} // namespace kc
