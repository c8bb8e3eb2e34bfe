#include "app/cli/record.h"

#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
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

// What `kcanvas record` takes besides the picture's flags, which kcanvas --help lists.
struct RecordFlags {
    std::string out;
    double fps = 30;
    int frames = 0;
    double seconds = 0;
    bool step = false, outlines = false, no_tint = false, no_legend = false, no_caption = false, plain = false;
    double blocks_per_second = 0, speed = 1, start = 0;
    std::vector<std::string> sweeps, center_to, inspect;
};

// Ctrl+C ends the recording cleanly: the temporary file goes, nothing is left half-written.
std::atomic<bool> g_interrupted{false};
void on_interrupt(int) { g_interrupted = true; }

// "--center-to X Y" becomes "--center-to=X,Y" (values may start with '-').
std::vector<std::string> join_pairs(int argc, char** argv) {
    std::vector<std::string> args(argv + 2, argv + argc);
    for (std::size_t i = 0; i + 2 < args.size(); ++i) {
        if (args[i] != "--center-to") continue;
        args[i] = fmt::format("--center-to={},{}", args[i + 1], args[i + 2]);
        args.erase(args.begin() + std::ptrdiff_t(i) + 1, args.begin() + std::ptrdiff_t(i) + 3);
    }
    return args;
}

void add_flags(CLI::App& app, RecordFlags& f) {
    app.add_option("--out", f.out,
                   "The recording: NAME.gif, NAME.mp4, NAME.webm (those two need ffmpeg), or a folder (NAME/) "
                   "for frame-00000.png ...")
        ->required();
    app.add_option("--fps", f.fps, "Frames per second; frame n is painted at t = n / fps (1..240, GIF 50 at most)")
        ->capture_default_str();
    auto* frames = app.add_option("--frames", f.frames, "How many frames (default: 5 seconds' worth)")
                       ->check(CLI::Range(1, 100000));
    app.add_option("--seconds", f.seconds, "How long, instead of --frames")
        ->check(CLI::Range(0.001, 3600.0))
        ->excludes(frames);
    app.add_flag("--step", f.step, "Step mode: the blocks paint one after another in launch order");
    app.add_option("--blocks-per-second", f.blocks_per_second,
                   "Step mode's pace (default: every block painted by 90% of the recording)")
        ->check(CLI::Range(0.001, 1e9));
    app.add_option("--sweep", f.sweeps,
                   "A parameter from one value to the other over the recording, shown in the caption: "
                   "weight=0:1, cell=, level=, radius=, iter=, zoom=1:1000 (geometric), block=8x8:64x16");
    app.add_option("--center-to", f.center_to, "With --sweep zoom=..: the centre X Y the zoom ends on")
        ->expected(2)
        ->delimiter(',');
    app.add_option("--speed", f.speed, "Animation time per recorded second (the window's speed factor)")
        ->check(CLI::Range(0.1, 8.0))
        ->capture_default_str();
    app.add_option("--start", f.start, "t of the first frame, seconds")->check(CLI::Range(0.0, 1e6));
    app.add_flag("--outlines", f.outlines, "Draw every block's boundary");
    app.add_option("--inspect", f.inspect, "Pin the inspector on pixel X,Y (its box and tooltip)")
        ->expected(2)
        ->delimiter(',');
    app.add_flag("--no-tint", f.no_tint, "No red tint over pixels written more than once");
    app.add_flag("--no-legend", f.no_legend, "No legend of the view's colours");
    app.add_flag("--no-caption", f.no_caption, "No caption (launch, mapping formula, what moves)");
    app.add_flag("--plain", f.plain, "The canvas alone, as --headless --out writes it: no overlays");
}

// Flags into a plan; the picture's flags went through parse_options. Exit code, or 0.
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
    if (auto e = record_output_error(f.out, o.width, o.height, f.fps)) return fail(*e);
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

int record(const RecordFlags& f, const RecordPlan& plan, Recorder::Render render) {
    auto opened = open_encoder({f.out, plan.job.params.width, plan.job.params.height, plan.fps, plan.frames});
    if (auto* e = std::get_if<std::string>(&opened)) {
        fmt::print(stderr, "kcanvas record: {}\n", *e);
        return 2;
    }
    Recorder recorder(plan, std::move(std::get<std::unique_ptr<FrameEncoder>>(opened)), std::move(render));
    const bool tty = ::isatty(2) == 1;
    struct sigaction interrupt {
    }, old_int{}, old_term{};
    interrupt.sa_handler = &on_interrupt;
    sigaction(SIGINT, &interrupt, &old_int);
    sigaction(SIGTERM, &interrupt, &old_term);
    while (recorder.step(std::chrono::milliseconds(100))) {
        show_progress(recorder, tty);
        if (g_interrupted) recorder.cancel();
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (tty) fmt::print(stderr, "\r\033[K");
    if (!recorder.succeeded()) {
        fmt::print(stderr, "kcanvas record: {}; nothing was written\n", recorder.error().value_or("failed"));
        return g_interrupted ? 130 : 1;
    }
    std::error_code ec;
    const auto bytes = std::filesystem::is_directory(f.out, ec) ? 0 : std::filesystem::file_size(f.out, ec);
    fmt::print(stderr, "kcanvas record: {} frames {}x{} at {:g} fps to {}{} in {:.1f} s ({:.1f} ms a frame)\n",
               plan.frames, plan.job.params.width, plan.job.params.height, plan.fps, f.out,
               bytes ? fmt::format(" ({:.2f} MB)", bytes / 1e6) : "", recorder.elapsed_seconds(),
               1e3 * recorder.elapsed_seconds() / plan.frames);
    return 0;
}

int record_with_gl(const RecordFlags& f, const RecordPlan& plan, const Options& o, SourceImages& sources) {
    FramePainter painter(o.backend, o.gpu);
    painter.set_present(o.present);
    if (op_registry()[plan.job.op].user_code) {
        const std::string source = o.kernel_source.empty() ? std::string(default_starter().source) : o.kernel_source;
        const KernelCompile k = painter.compile_user_kernel(source, "kernel.cu");
        if (!k.ok) {
            fmt::print(stderr, "kcanvas record: your kernel does not compile:\n{}\n", k.log);
            return 2;
        }
    }
    RecordRenderer renderer(painter, plan.job.params.width, plan.job.params.height);
    return record(f, plan, [&](const RecordFrame& frame, std::vector<Pixel>& out) {
        return renderer.render(frame, plan.overlays, &sources, out);
    });
}

// No GL at all (no EGL): the CPU emulator paints, and only the plain canvas can be recorded.
int record_without_gl(const RecordFlags& f, const RecordPlan& plan, SourceImages& sources) {
    auto emulator = std::make_shared<CpuGridEmulator>();
    return record(f, plan, [emulator, &sources](const RecordFrame& frame, std::vector<Pixel>& out) {
        PaintJob job = frame.job;
        job.params.src_a = sources.fitted(0), job.params.src_b = sources.fitted(1);
        out.assign(std::size_t(job.params.width) * job.params.height, Pixel{});
        OpOutputs outputs;
        if (auto e = emulator->paint(job, out.data(), &outputs))
            return std::optional<std::string>("launch refused: " + *e);
        return std::optional<std::string>();
    });
}

// The record flags into `f`, the rest (the picture's flags) into `rest`; an exit code for help
// or an error.
std::optional<int> parse_record_flags(int argc, char** argv, RecordFlags& f, std::vector<std::string>& rest) {
    CLI::App app{"kcanvas record: a GIF, MP4, WebM or PNG sequence of any op, view and overlay, headless.\n"
                 "Every flag of `kcanvas --help` that sets the picture works here too (--op, --size, --view,\n"
                 "--tutorial, --block, ...). Frame n is painted at t = n / fps: the same file on every run.",
                 "kcanvas record"};
    add_flags(app, f);
    app.allow_extras();
    try {
        std::vector<std::string> args = join_pairs(argc, argv);
        std::reverse(args.begin(), args.end());
        app.parse(args);
        rest = app.remaining();
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "kcanvas record: {}\nRun kcanvas record --help for the options.\n", e.what());
        return 2;
    }
    return std::nullopt;
}

// The picture's flags, read as `kcanvas --headless` reads them, and its images loaded and fitted.
std::variant<int, Options> picture_options(const std::vector<std::string>& rest, SourceImages& sources) {
    std::vector<std::string> picture_args = {"kcanvas", "--headless"};
    picture_args.insert(picture_args.end(), rest.begin(), rest.end());
    std::vector<char*> picture_argv;
    for (std::string& a : picture_args) picture_argv.push_back(a.data());
    auto parsed = parse_options(int(picture_argv.size()), picture_argv.data());
    if (const int* code = std::get_if<int>(&parsed)) return *code;
    Options o = std::get<Options>(parsed);
    for (auto [slot, path] : {std::pair{0, &o.image}, {1, &o.image2}}) {
        if (path->empty()) continue;
        if (auto e = sources.load(slot, *path)) {
            fmt::print(stderr, "kcanvas record: --image{}: {}\n", slot ? "2" : "", *e);
            return 2;
        }
    }
    if (sources.loaded(0) && !o.size_given) o.width = sources.original(0).width, o.height = sources.original(0).height;
    sources.fit(o.width, o.height);
    return o;
}

// Renders the plan through EGL (CUDA on --gpu's device, or the emulator), or without GL when only
// the plain canvas is wanted on the CPU.
int record_plan(const RecordFlags& f, const RecordPlan& plan, const Options& o, SourceImages& sources) {
    int cuda_device = -1;
#ifdef KC_HAVE_CUDA
    if (o.backend != Backend::Cpu && !cuda_unavailable_reason()) cuda_device = o.gpu.value_or(0);
#endif
    if (op_registry()[plan.job.op].user_code && (o.backend == Backend::Cpu || cuda_device < 0)) {
        fmt::print(stderr, "kcanvas record: your kernel needs a CUDA GPU (--backend cuda-interop or cuda-staged){}\n",
                   o.backend == Backend::Cpu ? "" : ": none is usable here");
        return o.backend == Backend::Cpu ? 2 : 1;
    }
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(cuda_device);
    } catch (const ContextError& e) {
        const bool cpu = o.backend == Backend::Cpu || (!o.backend && cuda_device < 0);
        if (cpu && !plan.overlays.any() && !op_registry()[plan.job.op].user_code)
            return record_without_gl(f, plan, sources);
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

int run_record_command(int argc, char** argv) {
    RecordFlags f;
    std::vector<std::string> rest;
    if (const auto code = parse_record_flags(argc, argv, f, rest)) return *code;
    SourceImages sources;
    auto picture = picture_options(rest, sources);
    if (const int* code = std::get_if<int>(&picture)) return *code;
    const Options& o = std::get<Options>(picture);
    RecordPlan plan;
    if (const int code = make_plan(f, o, plan)) return code;
    return record_plan(f, plan, o, sources);
}

} // namespace kc
