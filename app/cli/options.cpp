#include "app/cli/options.h"
#include "app/cli/timeline_out.h"
#include "app/core/timeline_file.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/core/data_dir.h"
#include "app/core/gpu_list.h"
#include "app/core/kernel_files.h"
#include "app/core/preset.h"
#include "app/lesson/lesson.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "render/io/atomic_file.h"
#include "render/io/image_io.h"
#include "render/io/quoted.h"
#include "render/io/source_images.h"

namespace kc {

namespace {

bool parse_size(const std::string& text, int& w, int& h) {
    const auto d = parse_dim3(text);
    const auto separators = std::count_if(text.begin(), text.end(), [](char c) { return c == 'x' || c == 'X'; });
    if (!d || d->z != 1 || separators != 1) return false;
    w = d->x, h = d->y;
    return true;
}

// A floating flag's range, the one check every floating flag gets: CLI::Range lets NaN through
// (every comparison with it is false), and "inf" is never a useful length, speed or time.
CLI::Validator finite_range(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            double v = 0;
            if (CLI::detail::lexical_cast(text, v) && std::isfinite(v) && v >= lo && v <= hi) return {};
            return fmt::format("{} is not a number from {:g} to {:g}", text, lo, hi);
        },
        fmt::format("FLOAT in [{:g} - {:g}]", lo, hi));
}

// "--center X Y" (and record's "--center-to X Y") becomes "--center=X,Y", so that values starting
// with '-' ("-0.5", "-inf") are not taken for flags.
std::vector<std::string> join_pair_values(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] != "--center" && args[i] != "--center-to") continue;
        std::string joined = args[i] + "=";
        std::size_t taken = 0;
        for (; taken < 2 && i + 1 + taken < args.size() && args[i + 1 + taken].rfind("--", 0) != 0; ++taken)
            joined += (taken ? "," : "") + args[i + 1 + taken];
        if (taken == 0) continue;
        args[i] = joined;
        args.erase(args.begin() + i + 1, args.begin() + i + 1 + taken);
    }
    return args;
}

// The picture's flags read as text and checked once all are parsed (the rest go straight into
// Options). The top level and `record` both register them, into this one struct and one Options:
// a command line gives them to one of the two (see misplaced_record), `command`.
struct PictureFlags {
    std::string size = "800x800", block = "32x8", grid = "auto", mapping = "2d", view = "pixels";
    std::string kernel_mode = "checked";
    std::string backend = "auto", present = "direct";
    std::string gpu; // --gpu, bench's too
    bool tutorial = false;
    std::vector<std::string> center;
    std::vector<std::pair<std::string, std::string>> params; // (table name, the text given), in order
    const CLI::App* command = nullptr;                       // set after parsing
    bool given(const std::string& flag) const { return command->count(flag) > 0; }
};

// --gpu, for the window, headless, record and bench; checked after parsing.
void add_gpu_flag(CLI::App& cmd, std::string& spec) {
    cmd.add_option("--gpu", spec,
                   "The CUDA GPU to paint with: its index, or a prefix of its name or UUID (see --list-gpus). "
                   "Window: interop needs the GPU OpenGL runs on")
        ->type_name("N|NAME|UUID");
}

void add_paint_flags(CLI::App& cmd, PictureFlags& f) {
    cmd.add_option("--backend", f.backend, "cuda-interop, cuda-staged, cpu, or auto (the first that works)")
        ->capture_default_str();
    cmd.add_option("--present", f.present,
                   "cuda-interop's way into the texture: pbo (pixel buffer + glTexSubImage2D), texture "
                   "(cudaMemcpy2DToArray into the registered texture), surface (a copy kernel writes it) or direct "
                   "(the op's kernel writes it, no copy, where nothing needs the pixels in memory)")
        ->capture_default_str();
}

void add_input_flags(CLI::App& cmd, Options& o, PictureFlags& f) {
    cmd.add_option("--op", o.op, "Operation: " + op_names())->capture_default_str();
    cmd.add_option("--kernel", o.kernel_path,
                   "Your own CUDA kernel, FILE.cu, compiled at start with NVRTC (implies --op user_kernel; "
                   "a starter by its bare name, e.g. waves.cu; see README \"Write your own kernel\")");
    cmd.add_option("--kernel-mode", f.kernel_mode,
                   "checked: out, a and b are bounds-checked views, an index past the end is named with its thread "
                   "and nothing faults; raw: plain pointers, as your kernel is timed without checks")
        ->capture_default_str();
    cmd.add_flag("--strict", o.strict,
                 "Headless: exit with 2 when your kernel (checked mode) reads or writes out of range; without it "
                 "the run prints the access and exits 0");
    cmd.add_option("--size", f.size, "Canvas size WxH (default 800x800, or the size of --image)")
        ->capture_default_str();
    cmd.add_option("--image", o.image,
                   "Input image A (PNG, JPEG, BMP, TGA). Without --size the canvas takes its size; otherwise it is "
                   "fitted to the canvas by nearest-neighbour resize, once on load");
    cmd.add_option("--image2", o.image2, "Input image B (add, blend), fitted to the canvas likewise");
    cmd.add_option("--preset", o.preset_path,
                   "Start from this preset (JSON, see README \"Presets\"); the other flags given override it");
    cmd.add_option("--ab", o.ab_presets,
                   "A/B split: two presets, A and B, painted on one canvas and timed side by side (A left of the "
                   "divider, B right); with --headless prints both times, their ratio B/A and how many pixels "
                   "differ (see README \"A/B split\"). A's preset gives the canvas and images; the other flags "
                   "change side A")
        ->expected(2)
        ->type_name("A.json B.json");
}

// One flag per parameter of the table (gpu/param_limits.h), read as text and checked after parsing.
void add_param_flags(CLI::App& cmd, PictureFlags& f) {
    for (const ParamSpec& s : kParams) {
        const std::string name(s.name);
        std::string help = fmt::format("{} ({}{}, default {})", s.help,
                                       s.has_choices() ? s.choice_list() : fmt::format("{:g}..{:g}", s.lo, s.hi),
                                       s.unit.empty() ? "" : " " + std::string(s.unit), param_text(s, OpParams{}));
        if (s.kind == ParamKind::Bool && !s.has_choices()) {
            cmd.add_flag_callback(
                "--" + name, [&f, name] { f.params.emplace_back(name, "on"); }, std::string(s.help));
            continue;
        }
        cmd.add_option_function<std::string>(
               "--" + name, [&f, name](const std::string& text) { f.params.emplace_back(name, text); }, help)
            ->type_name(s.has_choices() ? "NAME"
                        : s.whole()     ? "INT"
                                        : "FLOAT");
    }
    cmd.add_option("--center", f.center, "mandelbrot/julia: --center-x and --center-y in one: X Y")
        ->expected(2)
        ->delimiter(',')
        ->allow_extra_args(false);
}

void add_launch_flags(CLI::App& cmd, Options& o, PictureFlags& f) {
    cmd.add_option("--block", f.block, "Threads per block XxY (or XxYxZ)")->capture_default_str();
    cmd.add_option("--grid", f.grid, "Blocks per grid XxY, or auto (rounded up to cover the canvas)")
        ->capture_default_str();
    cmd.add_option("--pixels-per-thread", o.launch.pixels_per_thread,
                   "1, or 4 with the 2d mapping: each thread paints 4 neighbours in x with one 16-byte store")
        ->check(CLI::IsMember({1, 4}))
        ->capture_default_str();
    cmd.add_option("--mapping", f.mapping,
                   "Thread-to-pixel mapping: " + mapping_names() +
                       " (columns: 2d with x and y exchanged, so a warp writes down a column: uncoalesced)")
        ->capture_default_str();
    cmd.add_option("--view", f.view,
                   "What pixels show: pixels, block, thread, warp, lane, linear, sm, start (when the "
                   "pixel's block started)")
        ->capture_default_str();
    cmd.add_flag(
        "--tutorial", f.tutorial,
        "The PyCUDA tutorial's launch: block 50x20, grid 80x8, linear mapping (overrides --block/--grid/--mapping)");
}

// Everything that decides the picture and what paints it: the top level's and record's.
void add_picture_flags(CLI::App& cmd, Options& o, PictureFlags& f) {
    add_paint_flags(cmd, f);
    add_input_flags(cmd, o, f);
    add_param_flags(cmd, f);
    add_launch_flags(cmd, o, f);
    add_gpu_flag(cmd, f.gpu);
}

// The top level's own: how to run (headless, what to write, when to exit).
void add_run_flags(CLI::App& app, Options& o) {
    app.add_flag("--headless", o.headless, "Render without a window (EGL on the GPU's device platform)");
    app.add_option("--frames", o.frames, "Headless: frames to render (timings are over these)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--watchdog", o.watchdog_s,
                   "Seconds without a finished frame on a CUDA backend before kcanvas gives up with a message "
                   "(a kernel that never ends, a hung GPU); 0: never")
        ->check(CLI::Range(0, 86400))
        ->capture_default_str();
    app.add_option("--kernel-time-limit", o.kernel_time_limit_s,
                   "Seconds one frame of your kernel may run on the cpu backend before its sandbox stops it "
                   "(an endless loop)")
        ->check(CLI::Range(0.1, 600.0))
        ->capture_default_str();
    app.add_option("--out", o.out, "Headless: write the last frame to this PNG (or .jpg) file");
    app.add_flag("--force", o.force, "Replace --out (and --save-preset's file) even where it is read-only");
    app.add_flag("--json", o.json, "Headless: print the timings as JSON");
    app.add_option("--timeline-out", o.timeline_out,
                   "Headless: write the last frame's SM timeline (each block's SM or cpu worker, start and end) to "
                   "this Chrome-trace JSON file; per-pixel ops only");
    app.add_option("--timeline-in", o.timeline_in,
                   "Window: show the SM timeline in this file (a --timeline-out file, e.g. recorded on another "
                   "machine's GPU) in the Timing section's SM timeline");
    app.add_flag("--print-command", o.print_command,
                 "Print the kcanvas command that paints the picture these flags (and --preset) describe, then exit");
    app.add_option("--save-preset", o.save_preset, "Write the picture these flags describe as a preset, then exit");
}

void add_window_flags(CLI::App& app, Options& o) {
    app.add_flag("!--no-vsync", o.vsync, "Window: do not wait for the display's refresh (for measuring)");
    app.add_option("--script", o.script, "Window: run this UI script, then quit (see tests/gui)");
    app.add_flag("--user-settings", o.user_settings,
                 "Window, with --script: use settings.conf and imgui.ini as a run without a script does");
    app.add_option("--lesson", o.lesson,
                   "Window: open this lesson beside the canvas, a FILE.json or a shipped lesson's NAME (kcanvas "
                   "lesson list)");
    app.add_option(
           "--ui-scale", o.ui_scale_percent,
           "Window: UI scale in percent (75..300) times the monitor's, for this run (the panel's setting is kept)")
        ->check(CLI::Range(75, 300));
}

constexpr const char* kDataFooter =
    "\nSample images (logo.png, rose.jpg) and starter kernels (gradient.cu, waves.cu, ...) can be named bare: "
    "--image rose.jpg,\n--kernel waves.cu. They are looked up in <the binary's folder>/share/kcanvas (a build "
    "tree),\n<the binary's folder>/../share/kcanvas (an install prefix), then $XDG_DATA_DIRS/kcanvas; "
    "kcanvas --version says\nwhich was found. Settings: $XDG_CONFIG_HOME/kcanvas; autosaves and rescued kernels: "
    "$XDG_DATA_HOME/kcanvas;\nsaved pictures: the folder `xdg-user-dir PICTURES` names, else the working "
    "directory.";

// --version, --list-gpus and where data and user files are: main prints them, parsing probes no
// hardware. Added last: a command made after the footer would show it too.
void add_about_flags(CLI::App& app, Options& o) {
    app.add_flag("--list-gpus", o.list_gpus,
                 "List the CUDA GPUs, their EGL devices and whether interop works; then exit");
    app.add_flag("--version", o.version,
                 "Version, git commit, CUDA toolkit and architectures built for; whether NVRTC, EGL and a GPU are "
                 "available here; where the data was found");
    app.footer(kDataFooter);
}

CLI::App* add_record_command(CLI::App& app, RecordFlags& f) {
    CLI::App* cmd = app.add_subcommand(
        "record", "A GIF, MP4, WebM or PNG sequence of any op, view and overlay, headless. The picture's flags\n"
                  "are kcanvas's own (--op, --size, --view, --tutorial, --block, ...). Frame n is painted at\n"
                  "t = n / fps: the same file on every run.");
    cmd->add_option("--out", f.out,
                    "The recording: NAME.gif, NAME.mp4, NAME.webm (those two need ffmpeg), or a folder (NAME/) "
                    "for frame-00000.png ...")
        ->required();
    cmd->add_flag("--force", f.force, "Replace --out even where it is read-only");
    cmd->add_option("--fps", f.fps, "Frames per second; frame n is painted at t = n / fps (1..240, GIF 50 at most)")
        ->capture_default_str(); // checked with the plan (NaN and inf too)
    auto* frames = cmd->add_option("--frames", f.frames, "How many frames (default: 5 seconds' worth)")
                       ->check(CLI::Range(1, 100000));
    cmd->add_option("--seconds", f.seconds, "How long, instead of --frames")
        ->check(finite_range(0.001, 3600.0))
        ->excludes(frames);
    cmd->add_flag("--step", f.step, "Step mode: the blocks paint one after another in launch order");
    cmd->add_option("--blocks-per-second", f.blocks_per_second,
                    "Step mode's pace (default: every block painted by 90% of the recording)")
        ->check(finite_range(0.001, 1e9));
    cmd->add_option("--sweep", f.sweeps,
                    "A parameter from one value to the other over the recording, shown in the caption: "
                    "weight=0:1, cell=, level=, radius=, iter=, zoom=1:1000 (geometric), block=8x8:64x16");
    cmd->add_option("--center-to", f.center_to, "With --sweep zoom=..: the centre X Y the zoom ends on")
        ->expected(2)
        ->delimiter(',');
    cmd->add_option("--speed", f.speed, "Animation time per recorded second (the window's speed factor)")
        ->check(finite_range(0.1, 8.0))
        ->capture_default_str();
    cmd->add_option("--start", f.start, "t of the first frame, seconds")->check(finite_range(0.0, 1e6));
    cmd->add_flag("--outlines", f.outlines, "Draw every block's boundary");
    cmd->add_option("--inspect", f.inspect, "Pin the inspector on pixel X,Y (its box and tooltip)")
        ->expected(2)
        ->delimiter(',');
    cmd->add_flag("--no-tint", f.no_tint, "No red tint over pixels written more than once");
    cmd->add_flag("--no-legend", f.no_legend, "No legend of the view's colours");
    cmd->add_flag("--no-caption", f.no_caption, "No caption (launch, mapping formula, what moves)");
    cmd->add_flag("--plain", f.plain, "The canvas alone, as --headless --out writes it: no overlays");
    // The top level's other flags (--json, --script, --watchdog, ...) fall through to it: `kcanvas
    // record` has always accepted them, and ignores them.
    cmd->fallthrough();
    return cmd;
}

CLI::App* add_bench_command(CLI::App& app, BenchOptions& bench, std::string& gpu) {
    CLI::App* cmd = app.add_subcommand(
        "bench", "Time every op x size x backend x present path (CUDA events, warm-up, medians) next to a "
                 "device-to-device copy of the same bytes; prints a table, writes CSV and JSON");
    cmd->add_option("--ops", bench.ops, "Ops to run (default: all)")->delimiter(',');
    cmd->add_option("--sizes", bench.sizes, "Canvas sizes WxH")->delimiter(',')->capture_default_str();
    cmd->add_option("--present", bench.presents, "cuda-interop present paths: pbo, texture, surface, direct")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--backend", bench.backends, "Backends: cuda-interop, cuda-staged, cpu")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--block", bench.block, "Block shape")->capture_default_str();
    cmd->add_option("--screen", bench.screen, "Framebuffer each frame draws the canvas into (the window)")
        ->capture_default_str();
    cmd->add_option("--pixels-per-thread", bench.pixels_per_thread,
                    "Pixels per thread of the per-pixel ops (4 only on cuda-interop rows)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--mapping", bench.mappings,
                    "Mappings of the per-pixel ops, one row each (" + mapping_names() +
                        "); 4 pixels per thread runs with 2d only")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--watchdog", bench.watchdog_s,
                    "Seconds without progress before bench gives up with a message; 0: never")
        ->check(CLI::Range(0, 86400))
        ->capture_default_str();
    cmd->add_option("--reps", bench.reps, "Timed frames per row")->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--warmup", bench.warmup, "Untimed frames first")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    cmd->add_option("--csv", bench.csv, "CSV output file")->capture_default_str();
    cmd->add_option("--json-out", bench.json, "JSON output file")->capture_default_str();
    cmd->add_flag("--force", bench.force, "Replace --csv and --json-out even where they are read-only");
    cmd->add_flag("--sweep-blocks", bench.sweep_blocks, "Time every block shape per op and size; print the best");
    cmd->add_flag("--user-kernel-modes", bench.user_kernel_modes,
                  "With user_kernel among the ops: rows for each starter in raw mode, checked mode, checked with "
                  "the writer record and checked with a thread view, each with its ratio to raw");
    cmd->add_flag("--timeline", bench.timeline,
                  "Rows for each per-pixel op with the SM timeline off (the plain kernel), the teaching kernel "
                  "without it, and on, each with its ratio to off: the recording's own cost");
    add_gpu_flag(*cmd, gpu); // one spec with the top level's: `kcanvas --gpu 1 bench` benches GPU 1
    return cmd;
}

// `kcanvas lesson list`, `lesson check FILE|NAME`, `lesson export FILE|NAME --out DIR`.
CLI::App* add_lesson_command(CLI::App& app, LessonFlags& f) {
    CLI::App* cmd = app.add_subcommand(
        "lesson", "Lessons: steps of pictures with captions and questions kcanvas answers itself (see README "
                  "\"Lessons\").\nlist: the shipped lessons; check: every step painted headless and every "
                  "question answered\n(exit 1 naming a broken step); export: each step's picture and text, as "
                  "slides");
    cmd->require_subcommand(1, 1);
    cmd->add_subcommand("list", "Print the shipped lessons, one a line, name first");
    for (const char* action : {"check", "export"}) {
        CLI::App* sub = cmd->add_subcommand(action, std::string(action) == "check"
                                                        ? "Paint every step headless and answer every question; exit "
                                                          "1 naming the first broken step"
                                                        : "Write each step's picture (PNG) and text, and a GIF of "
                                                          "each step-mode step, into --out DIR");
        sub->add_option("lesson", f.lesson, "A lesson file (FILE.json) or a shipped lesson's NAME")->required();
        sub->add_option("--backend", f.backend, "cuda-interop, cuda-staged, cpu, or auto")->capture_default_str();
        if (std::string(action) == "export") {
            sub->add_option("--out", f.out, "The folder for step-01.png, step-01.txt, ...")->required();
            sub->add_flag("--force", f.force, "Replace read-only files in --out");
        }
    }
    return cmd;
}

// The lesson subcommand given (list, check or export), into o.lesson_command.
void take_lesson_command(const CLI::App& cmd, LessonFlags f, Options& o) {
    for (const CLI::App* sub : cmd.get_subcommands())
        if (sub->parsed()) f.action = sub->get_name();
    o.lesson_command = f;
}

// `kcanvas exercise list`, `exercise starter|solution NAME`, `exercise check NAME --kernel FILE|'GLOB'`.
CLI::App* add_exercise_command(CLI::App& app, ExerciseFlags& f) {
    CLI::App* cmd = app.add_subcommand(
        "exercise", "Exercises: a starter kernel with TODOs graded on pixels against a target (see README "
                    "\"Exercises\").\nlist | starter NAME | solution NAME | check NAME --kernel FILE|'GLOB' [--json] "
                    "[--backend auto|gpu|cpu]:\nthe shipped exercises, their kernels, or a kernel graded on several "
                    "launches (exit 0 pass, 1 fail,\n2 bad input) on the GPU, else on the CPU backend");
    cmd->require_subcommand(1, 1);
    cmd->add_subcommand("list", "Print the shipped exercises, one a line, name first");
    for (const char* action : {"starter", "solution"})
        cmd->add_subcommand(action, std::string("Print the exercise's ") + (std::string(action) == "starter"
                                                                                ? "starter kernel (with its TODOs)"
                                                                                : "reference solution"))
            ->add_option("exercise", f.exercise, "A shipped exercise's NAME, or a folder holding exercise.json")
            ->required();
    CLI::App* check = cmd->add_subcommand(
        "check", "Grade --kernel against the exercise's target on its launches and more; name the first launch "
                 "that fails");
    check->add_option("exercise", f.exercise, "A shipped exercise's NAME, or a folder holding exercise.json")
        ->required();
    check
        ->add_option("--kernel", f.kernel,
                     "The submission (FILE.cu), or a quoted glob ('submissions/*.cu', at most 500 files) kcanvas "
                     "expands and grades one by one")
        ->required();
    check->add_flag("--json", f.json,
                    "One JSON line per file: passed, summary, each launch's wrong and unwritten "
                    "pixels, out-of-range accesses, reads and writes");
    check->add_option("--backend", f.backend, "auto (the GPU when there is one), gpu or cpu")->capture_default_str();
    return cmd;
}

// The exercise subcommand given (list, starter, solution or check), into o.exercise_command.
void take_exercise_command(const CLI::App& cmd, ExerciseFlags f, Options& o) {
    for (const CLI::App* sub : cmd.get_subcommands())
        if (sub->parsed()) f.action = sub->get_name();
    o.exercise_command = f;
}

using Refusal = std::optional<std::string>; // why the flags cannot run, as kcanvas prints it

// --ab A B: A is the picture, as --preset A would be (side B is read once the canvas is known).
Refusal apply_ab_side_a(Options& o) {
    if (o.ab_presets.empty()) return std::nullopt;
    if (!o.preset_path.empty()) return "--ab A.json B.json names side A's preset: drop --preset";
    o.preset_path = o.ab_presets[0];
    return std::nullopt;
}

// --ab's side B: the op, parameters, launch and kernel of B's preset, on side A's canvas and images.
Refusal apply_ab_side_b(Options& o, const PictureFlags&) {
    if (o.ab_presets.size() != 2) return std::nullopt;
    Preset b;
    std::vector<std::string> warnings;
    if (auto e = load_preset(o.ab_presets[1], b, warnings)) return "--ab " + *e;
    for (const std::string& w : warnings) fmt::print(stderr, "kcanvas: warning: --ab {}\n", w);
    const std::string name = escaped(o.ab_presets[1]);
    if (b.ab) fmt::print(stderr, "kcanvas: warning: --ab {}: its own split is ignored; its side A is side B\n", name);
    if (b.job.params.width != o.width || b.job.params.height != o.height)
        fmt::print(stderr, "kcanvas: warning: --ab {} paints {}x{}; side B paints side A's canvas, {}x{}\n", name,
                   b.job.params.width, b.job.params.height, o.width, o.height);
    AbSplit ab = o.ab.value_or(AbSplit{});
    ab.b = b.job, ab.b_kernel_source = b.kernel_source, ab.b_kernel_mode = b.kernel_mode;
    o.ab = std::move(ab);
    if (auto e = resolve_launch(job_b_from_options(o), universal_limits()).launch_refusal)
        return fmt::format("--ab {}: side B's launch: {}", name, *e);
    return std::nullopt;
}

// --preset's picture under the flags: a flag given with it replaces what the preset says.
Refusal apply_preset_file(Options& o, const PictureFlags& f) {
    if (auto refusal = apply_ab_side_a(o)) return refusal;
    if (o.preset_path.empty()) return std::nullopt;
    Preset p;
    std::vector<std::string> warnings;
    if (auto e = load_preset(o.preset_path, p, warnings)) return "--preset " + *e;
    for (const std::string& w : warnings) fmt::print(stderr, "kcanvas: warning: --preset {}\n", w);
    const Options given = o; // the flags CLI11 set in place
    apply_preset(p, o);
    if (f.given("--op")) o.op = given.op;
    if (!given.image.empty()) o.image = given.image, o.image2 = given.image2;
    if (f.given("--pixels-per-thread")) o.launch.pixels_per_thread = given.launch.pixels_per_thread;
    return std::nullopt;
}

// The table's parameters, in the order given (the last of a name wins), and --center.
Refusal apply_params(Options& o, const PictureFlags& f) {
    bool centred = !o.preset_path.empty();
    for (const auto& [name, text] : f.params) {
        if (auto e = set_param_text(o.params, name, text)) return "--" + *e;
        centred |= name.starts_with("center-");
    }
    if (f.center.size() == 2) {
        for (int i = 0; i < 2; ++i)
            if (auto e = set_param_text(o.params, i ? "center-y" : "center-x", f.center[i])) return "--center: " + *e;
    } else if (!centred && o.op == "julia") {
        o.params.center_x = 0.0; // the Julia set is centred on 0
    }
    return std::nullopt;
}

// --gpu N|NAME|UUID: the one CUDA device it names, for the window, headless, record and bench.
Refusal apply_gpu(const std::string& spec, Options& o, BenchOptions& bench) {
    GpuChoice choice = resolve_gpu_option(spec);
    if (!choice.index) return std::move(choice.error);
    o.gpu = bench.gpu = choice.index;
    return std::nullopt;
}

Refusal apply_op(Options& o, const PictureFlags& f) {
    if (o.image.empty() && !o.image2.empty()) return "--image2 needs --image";
    // A bare name not found here is looked up among the shipped samples: --image rose.jpg, --kernel waves.cu.
    o.image = resolve_data_file(o.image, "images"), o.image2 = resolve_data_file(o.image2, "images");
    o.kernel_path = resolve_data_file(o.kernel_path, "kernels");
    if (!o.kernel_path.empty()) {
        if (f.given("--op") && o.op != "user_kernel")
            return fmt::format("--kernel runs your kernel as op user_kernel: drop --op {}", o.op);
        o.op = "user_kernel";
        if (auto e = read_text_file(o.kernel_path, o.kernel_source)) return "--kernel: " + *e;
    }
    if (!find_op(o.op)) return fmt::format("unknown --op '{}': choose one of {}", o.op, op_names());
    if (f.given("--kernel-mode")) {
        const auto m = parse_kernel_mode(f.kernel_mode);
        if (!m) return fmt::format("--kernel-mode '{}' is not checked or raw", f.kernel_mode);
        o.kernel_mode = *m;
    }
    if (f.given("--size")) {
        o.size_given = true;
        if (!parse_size(f.size, o.width, o.height)) return fmt::format("--size '{}' is not WxH, e.g. 800x800", f.size);
    }
    if (auto e = canvas_size_error(o.width, o.height)) return "--size: " + *e;
    return std::nullopt;
}

Refusal apply_launch(Options& o, const PictureFlags& f) {
    if (f.given("--block")) {
        const auto b = parse_dim3(f.block);
        if (!b) return fmt::format("--block '{}' is not XxY or XxYxZ, e.g. 32x8", f.block);
        o.launch.block = *b;
    }
    if (f.given("--grid")) {
        o.launch.auto_grid = f.grid == "auto";
        const auto g = parse_dim3(f.grid);
        if (!o.launch.auto_grid && !g) return fmt::format("--grid '{}' is not XxY, XxYxZ or auto", f.grid);
        if (g) o.launch.grid = *g;
    }
    if (f.given("--mapping")) {
        const auto m = parse_mapping(f.mapping);
        if (!m) return fmt::format("unknown --mapping '{}': choose one of {}", f.mapping, mapping_names());
        o.launch.mapping = *m;
    }
    if (f.given("--view")) {
        const auto v = parse_view(f.view);
        if (!v)
            return fmt::format("unknown --view '{}': choose pixels, block, thread, warp, lane, linear, sm or start",
                               f.view);
        o.view = *v;
    }
    if (f.tutorial) o.launch = tutorial_preset();
    return std::nullopt;
}

Refusal apply_run(Options& o, const PictureFlags& f) {
    if (f.backend != "auto") {
        o.backend = parse_backend(f.backend);
        if (!o.backend)
            return fmt::format("unknown --backend '{}': choose cuda-interop, cuda-staged, cpu or auto", f.backend);
    }
    const auto p = parse_present(f.present);
    if (!p) return fmt::format("unknown --present '{}': choose {}", f.present, present_choices());
    o.present = *p;
    if (!o.headless && (!o.out.empty() || o.json)) return "--out and --json need --headless";
    if (!o.out.empty()) { // before any frame is rendered
        if (auto e = output_format_error(o.out)) return "--out: " + *e;
        if (auto e = output_path_error(o.out)) return "--out: " + *e;
        if (auto e = read_only_refusal(o.out, o.force)) return "--out " + *e;
    }
    if (auto e = timeline_out_refusal(o)) return *e;
    if (!o.timeline_in.empty()) {
        if (o.headless) return "--timeline-in shows a recorded timeline in the window: drop --headless";
        auto recorded = read_timeline_file(o.timeline_in);
        if (auto* e = std::get_if<std::string>(&recorded)) return "--timeline-in: " + *e;
    }
    if (!o.lesson.empty()) {
        if (o.headless) return "--lesson opens the window: drop --headless (kcanvas lesson check runs one headless)";
        Lesson lesson;
        if (auto e = load_lesson(o.lesson, lesson)) return "--lesson: " + *e;
    }
    if (o.save_preset.empty()) return std::nullopt;
    if (auto e = output_path_error(o.save_preset)) return "--save-preset: " + *e;
    if (auto e = read_only_refusal(o.save_preset, o.force)) return "--save-preset " + *e;
    return std::nullopt;
}

// The top level and the commands it may run instead of the window or headless.
struct Commands {
    const CLI::App* top;
    CLI::App* record;
    CLI::App* bench;
};

// `record` takes the whole command line, as when main handed it argv. CLI11 would also take it
// later on the line (`kcanvas --op blend record`, `bench record`), twice, followed by `bench`, or
// with flags after a `--` (which ends a command, handing the rest to the top level): all of these
// were refused, and are.
Refusal misplaced_record(const Commands& commands, char** argv) {
    const CLI::App& record = *commands.record;
    if (!record.parsed()) return std::nullopt;
    bool alone = argv[1] == std::string_view("record") && record.count() == 1 && !commands.bench->parsed();
    for (const CLI::Option* flag : record.get_options()) { // the top level reads none of record's flags
        const CLI::Option* same = commands.top->get_option_no_throw(flag->get_name());
        alone = alone && (!same || same->count() == 0);
    }
    if (alone) return std::nullopt;
    return "record takes the whole command line: kcanvas record [OPTIONS] (see kcanvas record --help)";
}

// Reads the whole command line into the flags' variables; the exit code when it cannot be read or
// --help was asked for.
std::optional<int> parse_command_line(CLI::App& app, const Commands& commands, int argc, char** argv) {
    try {
        std::vector<std::string> args = join_pair_values(argc, argv);
        std::reverse(args.begin() + 1, args.end()); // CLI11 takes the arguments last first
        args.erase(args.begin());
        app.parse(args);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout); // the help of the command given, if any
        return 0;
    } catch (const CLI::ParseError& e) {
        if (auto refusal = misplaced_record(commands, argv)) { // that, not what CLI11 made of the rest
            fmt::print(stderr, "kcanvas: {}\n", *refusal);
        } else {
            const char* name = commands.record->parsed() ? "kcanvas record" : "kcanvas";
            fmt::print(stderr, "{}: {}\nRun {} --help for the options.\n", name, e.what(), name);
        }
        return 2;
    }
    return std::nullopt;
}

// What the parsed flags ask for, checked and resolved into `o` (and `bench`); why not, if they cannot run.
Refusal resolve(Options& o, PictureFlags& f, RecordFlags& record, BenchOptions& bench, const Commands& commands) {
    const bool recording = commands.record->parsed();
    f.command = recording ? commands.record : commands.top;
    if (f.given("--gpu") || commands.bench->count("--gpu") > 0) {
        if (auto refusal = apply_gpu(f.gpu, o, bench)) return refusal; // nothing more to check: the GPU is not here
    }
    if (commands.bench->parsed()) {
        // A missing folder is found now, not after the whole benchmark has run.
        if (auto e = output_path_error(bench.csv)) return "--csv: " + *e;
        if (auto e = output_path_error(bench.json)) return "--json-out: " + *e;
        if (auto e = read_only_refusal(bench.csv, bench.force)) return "--csv " + *e;
        if (auto e = read_only_refusal(bench.json, bench.force)) return "--json-out " + *e;
        o.bench = bench;
        return std::nullopt;
    }
    if (recording) {
        o.record = record;
        o.headless = true; // it renders headless: the top level's --json, falling through, is accepted as ever
    }
    Refusal refusal = apply_preset_file(o, f);
    for (auto step : {apply_op, apply_params, apply_launch, apply_run, apply_ab_side_b})
        if (!refusal) refusal = step(o, f);
    return refusal;
}

} // namespace

std::variant<Options, int> parse_options(int argc, char** argv) {
    Options o;
    PictureFlags f;
    RecordFlags record;
    BenchOptions bench;
    CLI::App app{"kcanvas — CUDA kernels paint an OpenGL canvas live; a Dear ImGui panel sets the launch.\n"
                 "Without --headless it opens a window. Exit codes: 0 ok, 1 no usable GPU/display/EGL,\n"
                 "2 bad input (unknown op, malformed flag, a launch the device cannot run, a --kernel that is\n"
                 "missing or does not compile); 1 also when a kernel faults on the GPU (its source is saved).\n"
                 "kcanvas record --help: GIF, MP4, WebM or PNG-sequence recordings.",
                 "kcanvas"};
    add_run_flags(app, o);
    add_picture_flags(app, o, f);
    add_window_flags(app, o);
    const Commands commands{&app, add_record_command(app, record), add_bench_command(app, bench, f.gpu)};
    add_picture_flags(*commands.record, o, f);
    LessonFlags lesson;
    const CLI::App* lesson_cmd = add_lesson_command(app, lesson);
    ExerciseFlags exercise;
    const CLI::App* exercise_cmd = add_exercise_command(app, exercise);
    add_about_flags(app, o);
    if (const auto code = parse_command_line(app, commands, argc, argv)) return *code;
    if (lesson_cmd->parsed()) {
        take_lesson_command(*lesson_cmd, lesson, o);
        return o;
    }
    if (exercise_cmd->parsed()) {
        take_exercise_command(*exercise_cmd, exercise, o);
        return o;
    }
    Refusal refusal = misplaced_record(commands, argv);
    if (!refusal && o.version && !commands.record->parsed()) return o; // main prints it; nothing else is checked
    if (!refusal) refusal = resolve(o, f, record, bench, commands);
    if (refusal) {
        fmt::print(stderr, "kcanvas: {}\n", *refusal);
        return 2;
    }
    return o;
}

std::optional<std::string> read_only_refusal(const std::string& path, bool force) {
    if (force) return std::nullopt;
    if (auto e = read_only_error(path)) return *e + ": add --force to replace it";
    return std::nullopt;
}

int save_preset_or_print_command(Options o) {
    if (!o.image.empty() && !o.size_given) { // the canvas takes image A's size, as a run would
        SourceImages images;
        if (auto e = images.load(0, o.image)) {
            fmt::print(stderr, "kcanvas: --image: {}\n", *e);
            return 2;
        }
        o.width = images.original(0).width, o.height = images.original(0).height;
    }
    const Preset p = preset_from_options(o);
    if (!o.save_preset.empty()) {
        if (auto e = save_preset(o.save_preset, p)) {
            fmt::print(stderr, "kcanvas: --save-preset: {}\n", *e);
            return 2;
        }
        fmt::print(stderr, "kcanvas: saved preset {}\n", o.save_preset);
    }
    if (o.print_command) fmt::print("{}\n", command_line(p));
    return 0;
}

Preset preset_from_options(const Options& o) {
    Preset p;
    p.job = job_from_options(o);
    p.images = {o.image, o.image2};
    p.kernel_source = o.kernel_source;
    p.kernel_mode = o.kernel_mode;
    p.block_outlines = o.block_outlines;
    p.inspect = o.inspect;
    p.canvas_zoom = o.canvas_zoom;
    if (o.ab) {
        p.ab = *o.ab;
        p.ab->b = job_b_from_options(o);
    }
    return p;
}

void apply_preset(const Preset& p, Options& o) {
    o.op = std::string(op_registry()[p.job.op].name);
    o.params = p.job.params;
    o.width = p.job.params.width, o.height = p.job.params.height, o.size_given = true;
    o.launch = p.job.launch;
    o.view = p.job.view;
    o.image = p.images[0], o.image2 = p.images[1];
    o.kernel_source = p.kernel_source;
    o.kernel_mode = p.kernel_mode;
    o.block_outlines = p.block_outlines;
    o.inspect = p.inspect;
    o.canvas_zoom = p.canvas_zoom;
    o.ab = p.ab;
}

PaintJob job_from_options(const Options& o) {
    PaintJob job;
    job.op = find_op(o.op)->index;
    job.params = o.params;
    job.params.width = o.width;
    job.params.height = o.height;
    job.launch = o.launch;
    job.view = o.view;
    return job;
}

PaintJob job_b_from_options(const Options& o) {
    PaintJob job = o.ab->b;
    job.params.width = o.width;
    job.params.height = o.height;
    return job;
}

} // namespace kc
