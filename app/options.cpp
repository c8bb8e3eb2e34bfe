#include "options.h"

#include <algorithm>
#include <cstdlib>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "atomic_file.h"
#include "data_dir.h"
#include "gpu_list.h"
#include "image_io.h"
#include "kernel_files.h"
#include "param_limits.h"
#include "registry.h"

namespace kc {

namespace {

bool parse_size(const std::string& text, int& w, int& h) {
    const auto d = parse_dim3(text);
    const auto separators = std::count_if(text.begin(), text.end(), [](char c) { return c == 'x' || c == 'X'; });
    if (!d || d->z != 1 || separators != 1) return false;
    w = d->x, h = d->y;
    return true;
}

// A number and nothing else ("nan" and "inf" parse here, and param_error refuses them).
std::optional<double> parse_number(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return v;
}

// "--center X Y" becomes "--center=X,Y", so that values starting with '-' ("-0.5", "-inf") are not
// taken for flags.
std::vector<std::string> join_center_values(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] != "--center") continue;
        std::string joined = "--center=";
        std::size_t taken = 0;
        for (; taken < 2 && i + 1 + taken < args.size() && args[i + 1 + taken].rfind("--", 0) != 0; ++taken)
            joined += (taken ? "," : "") + args[i + 1 + taken];
        if (taken == 0) continue;
        args[i] = joined;
        args.erase(args.begin() + i + 1, args.begin() + i + 1 + taken);
    }
    return args;
}

constexpr const char* kDataFooter =
    "\nSample images (logo.png, rose.jpg) and starter kernels (gradient.cu, waves.cu, ...) can be named bare: "
    "--image rose.jpg,\n--kernel waves.cu. They are looked up in <the binary's folder>/share/kcanvas (a build "
    "tree),\n<the binary's folder>/../share/kcanvas (an install prefix), then $XDG_DATA_DIRS/kcanvas; "
    "kcanvas --version says\nwhich was found. Settings: $XDG_CONFIG_HOME/kcanvas; autosaves and rescued kernels: "
    "$XDG_DATA_HOME/kcanvas;\nsaved pictures: the folder `xdg-user-dir PICTURES` names, else the working "
    "directory.";

// --gpu (for the window, headless and bench) and --list-gpus; the GPU is checked after parsing.
CLI::Option* add_gpu_flags(CLI::App& app, CLI::App& bench, std::string& spec, bool& list) {
    const std::string help = "The CUDA GPU to paint with: its index, or a prefix of its name or UUID "
                             "(see --list-gpus). Window: interop needs the GPU OpenGL runs on";
    bench.add_option("--gpu", spec, help)->type_name("N|NAME|UUID");
    app.add_flag("--list-gpus", list, "List the CUDA GPUs, their EGL devices and whether interop works; then exit");
    return app.add_option("--gpu", spec, help)->type_name("N|NAME|UUID");
}

} // namespace

std::variant<Options, int> parse_options(int argc, char** argv) {
    Options o;
    CLI::App app{"kcanvas — CUDA kernels paint an OpenGL canvas live; a Dear ImGui panel sets the launch.\n"
                 "Without --headless it opens a window. Exit codes: 0 ok, 1 no usable GPU/display/EGL,\n"
                 "2 bad input (unknown op, malformed flag, a launch the device cannot run, a --kernel that is\n"
                 "missing or does not compile); 1 also when a kernel faults on the GPU (its source is saved).\n"
                 "kcanvas record --help: GIF, MP4, WebM or PNG-sequence recordings.",
                 "kcanvas"};
    std::string present = "surface";
    std::string size = "800x800", block = "32x8", grid = "auto", mapping = "2d", view = "pixels", backend = "auto";
    bool tutorial = false;
    app.add_flag("--headless", o.headless, "Render without a window (EGL on the GPU's device platform)");
    app.add_option("--op", o.op, "Operation: " + op_names())->capture_default_str();
    auto* op_option = app.get_option("--op");
    app.add_option("--kernel", o.kernel_path,
                   "Your own CUDA kernel, FILE.cu, compiled at start with NVRTC (implies --op user_kernel; "
                   "a starter by its bare name, e.g. waves.cu; see README \"Write your own kernel\")");
    auto* size_option = app.add_option("--size", size, "Canvas size WxH (default 800x800, or the size of --image)")
                            ->capture_default_str();
    app.add_option("--image", o.image,
                   "Input image A (PNG, JPEG, BMP, TGA). Without --size the canvas takes its size; otherwise it is "
                   "fitted to the canvas by nearest-neighbour resize, once on load");
    app.add_option("--image2", o.image2, "Input image B (add, blend), fitted to the canvas likewise");
    std::string variant = "naive";
    // The ops' numbers are read as text and checked by param_error (gpu/param_limits.h) after parsing.
    std::vector<std::pair<std::string, std::string>> numbers; // (name, the text given)
    auto number_option = [&](const std::string& name, const std::string& help) {
        const ParamLimit* l = find_param_limit(name);
        return app
            .add_option_function<std::string>(
                "--" + name, [&numbers, name](const std::string& text) { numbers.emplace_back(name, text); },
                fmt::format("{} ({:g}..{:g}, default {:g})", help, l->lo, l->hi, l->default_value))
            ->type_name(l->whole ? "INT" : "FLOAT");
    };
    number_option("level", "threshold: gray >= level is white");
    number_option("radius", "box_blur radius (window 2r+1)");
    app.add_option("--variant", variant,
                   "box_blur, sobel, histogram, matmul: naive (global memory) or tiled (shared memory)")
        ->capture_default_str();
    number_option("iter", "mandelbrot/julia: maximum iterations");
    app.add_flag("--double", o.params.use_double, "mandelbrot/julia: iterate in double precision");
    std::vector<std::string> center;
    app.add_option("--center", center, "mandelbrot/julia: centre of the view X Y (each -1000..1000)")
        ->expected(2)
        ->delimiter(',')
        ->allow_extra_args(false);
    number_option("zoom", "mandelbrot/julia: zoom (1: 3 units across 800 pixels)");
    number_option("matmul-n", "matmul: N, a multiple of 16");
    app.add_option("--block", block, "Threads per block XxY (or XxYxZ)")->capture_default_str();
    app.add_option("--grid", grid, "Blocks per grid XxY, or auto (rounded up to cover the canvas)")
        ->capture_default_str();
    app.add_option("--pixels-per-thread", o.launch.pixels_per_thread,
                   "1, or 4 with the 2d mapping: each thread paints 4 neighbours in x with one 16-byte store")
        ->check(CLI::IsMember({1, 4}))
        ->capture_default_str();
    app.add_option("--mapping", mapping,
                   "Thread-to-pixel mapping: " + mapping_names() +
                       " (columns: 2d with x and y exchanged, so a warp writes down a column: uncoalesced)")
        ->capture_default_str();
    app.add_option("--view", view, "What pixels show: pixels, block, thread, warp, lane, linear, sm")
        ->capture_default_str();
    app.add_flag(
        "--tutorial", tutorial,
        "The PyCUDA tutorial's launch: block 50x20, grid 80x8, linear mapping (overrides --block/--grid/--mapping)");
    number_option("weight", "Blend weight of A");
    number_option("cell", "Checkerboard cell size in pixels");
    app.add_option("--frames", o.frames, "Headless: frames to render (timings are over these)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--watchdog", o.watchdog_s,
                   "Seconds without a finished frame on a CUDA backend before kcanvas gives up with a message "
                   "(a kernel that never ends, a hung GPU); 0: never")
        ->check(CLI::Range(0, 86400))
        ->capture_default_str();
    app.add_option("--out", o.out, "Headless: write the last frame to this PNG (or .jpg) file");
    app.add_flag("--json", o.json, "Headless: print the timings as JSON");
    app.add_option("--backend", backend, "cuda-interop, cuda-staged, cpu, or auto (the first that works)")
        ->capture_default_str();
    app.add_option("--present", present,
                   "cuda-interop's way into the texture: pbo (pixel buffer + glTexSubImage2D), texture "
                   "(cudaMemcpy2DToArray into the registered texture) or surface (a kernel writes it)")
        ->capture_default_str();
    app.add_flag("!--no-vsync", o.vsync, "Window: do not wait for the display's refresh (for measuring)");
    app.add_option("--script", o.script, "Window: run this UI script, then quit (see tests/gui)");
    app.add_option(
           "--ui-scale", o.ui_scale_percent,
           "Window: UI scale in percent (75..300) times the monitor's, for this run (the panel's setting is kept)")
        ->check(CLI::Range(75, 300));

    app.add_flag("--version", o.version,
                 "Version, git commit, CUDA toolkit and architectures built for; whether NVRTC, EGL and a GPU are "
                 "available here; where the data was found");
    app.footer(kDataFooter);

    BenchOptions bench;
    CLI::App* bench_cmd = app.add_subcommand(
        "bench", "Time every op x size x backend x present path (CUDA events, warm-up, medians) next to a "
                 "device-to-device copy of the same bytes; prints a table, writes CSV and JSON");
    bench_cmd->add_option("--ops", bench.ops, "Ops to run (default: all)")->delimiter(',');
    bench_cmd->add_option("--sizes", bench.sizes, "Canvas sizes WxH")->delimiter(',')->capture_default_str();
    bench_cmd->add_option("--present", bench.presents, "cuda-interop present paths: pbo, texture, surface")
        ->delimiter(',')
        ->capture_default_str();
    bench_cmd->add_option("--backend", bench.backends, "Backends: cuda-interop, cuda-staged, cpu")
        ->delimiter(',')
        ->capture_default_str();
    bench_cmd->add_option("--block", bench.block, "Block shape")->capture_default_str();
    bench_cmd->add_option("--screen", bench.screen, "Framebuffer each frame draws the canvas into (the window)")
        ->capture_default_str();
    bench_cmd
        ->add_option("--pixels-per-thread", bench.pixels_per_thread,
                     "Pixels per thread of the per-pixel ops (4 only on cuda-interop rows)")
        ->delimiter(',')
        ->capture_default_str();
    bench_cmd
        ->add_option("--mapping", bench.mappings,
                     "Mappings of the per-pixel ops, one row each (" + mapping_names() +
                         "); 4 pixels per thread runs with 2d only")
        ->delimiter(',')
        ->capture_default_str();
    bench_cmd
        ->add_option("--watchdog", bench.watchdog_s,
                     "Seconds without progress before bench gives up with a message; 0: never")
        ->check(CLI::Range(0, 86400))
        ->capture_default_str();
    bench_cmd->add_option("--reps", bench.reps, "Timed frames per row")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    bench_cmd->add_option("--warmup", bench.warmup, "Untimed frames first")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    bench_cmd->add_option("--csv", bench.csv, "CSV output file")->capture_default_str();
    bench_cmd->add_option("--json-out", bench.json, "JSON output file")->capture_default_str();
    bench_cmd->add_flag("--sweep-blocks", bench.sweep_blocks, "Time every block shape per op and size; print the best");
    std::string gpu;
    CLI::Option* gpu_option = add_gpu_flags(app, *bench_cmd, gpu, o.list_gpus);

    try {
        std::vector<std::string> args = join_center_values(argc, argv);
        std::reverse(args.begin() + 1, args.end()); // CLI11 takes the arguments last first
        args.erase(args.begin());
        app.parse(args);
    } catch (const CLI::CallForHelp& e) {
        std::fputs(app.help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "kcanvas: {}\nRun kcanvas --help for the options.\n", e.what());
        return 2;
    }

    auto fail = [](const std::string& message) {
        fmt::print(stderr, "kcanvas: {}\n", message);
        return 2;
    };
    if (o.version) return o; // main prints it: parsing probes no hardware
    if (gpu_option->count() > 0 || bench_cmd->get_option("--gpu")->count() > 0) {
        const GpuChoice choice = resolve_gpu_option(gpu);
        if (!choice.index) return fail(choice.error);
        o.gpu = bench.gpu = choice.index;
    }
    if (bench_cmd->parsed()) {
        // A missing folder is found now, not after the whole benchmark has run.
        if (auto e = output_path_error(bench.csv)) return fail("--csv: " + *e);
        if (auto e = output_path_error(bench.json)) return fail("--json-out: " + *e);
        o.bench = bench;
        return o;
    }
    o.size_given = size_option->count() > 0;
    // A bare name not found here is looked up among the shipped samples: --image rose.jpg, --kernel waves.cu.
    o.image = resolve_data_file(o.image, "images"), o.image2 = resolve_data_file(o.image2, "images");
    o.kernel_path = resolve_data_file(o.kernel_path, "kernels");
    if (variant == "naive" || variant == "global" || variant == "0")
        o.params.variant = 0;
    else if (variant == "tiled" || variant == "shared" || variant == "1")
        o.params.variant = 1;
    else
        return fail(fmt::format("unknown --variant '{}': choose naive or tiled", variant));
    double zoom = 1.0;
    for (const auto& [name, text] : numbers) {
        const auto v = parse_number(text);
        if (!v) return fail(fmt::format("--{} '{}' is not a number", name, text));
        if (auto e = param_error(name, *v)) return fail("--" + *e);
        if (name == "weight") o.weight = float(*v);
        if (name == "cell") o.cell = int(*v);
        if (name == "level") o.params.level = int(*v);
        if (name == "radius") o.params.radius = int(*v);
        if (name == "iter") o.params.max_iter = int(*v);
        if (name == "matmul-n") o.params.matmul_n = int(*v);
        if (name == "zoom") zoom = *v;
    }
    if (center.size() == 2) {
        for (int i = 0; i < 2; ++i) {
            const auto v = parse_number(center[i]);
            if (!v) return fail(fmt::format("--center '{}' is not a number", center[i]));
            if (auto e = param_error(i ? "center-y" : "center-x", *v)) return fail("--center: " + *e);
            (i ? o.params.center_y : o.params.center_x) = *v;
        }
    } else if (o.op == "julia") {
        o.params.center_x = 0.0;
    }
    o.params.scale = 3.0 / 800 / zoom;
    if (o.image.empty() && !o.image2.empty()) return fail("--image2 needs --image");
    if (!o.kernel_path.empty()) {
        if (op_option->count() > 0 && o.op != "user_kernel")
            return fail(fmt::format("--kernel runs your kernel as op user_kernel: drop --op {}", o.op));
        o.op = "user_kernel";
        if (auto e = read_text_file(o.kernel_path, o.kernel_source)) return fail("--kernel: " + *e);
    }
    if (!find_op(o.op)) return fail(fmt::format("unknown --op '{}': choose one of {}", o.op, op_names()));
    if (!parse_size(size, o.width, o.height)) return fail(fmt::format("--size '{}' is not WxH, e.g. 800x800", size));
    if (auto e = canvas_size_error(o.width, o.height)) return fail("--size: " + *e);
    const auto b = parse_dim3(block);
    if (!b) return fail(fmt::format("--block '{}' is not XxY or XxYxZ, e.g. 32x8", block));
    o.launch.block = *b;
    if (grid != "auto") {
        const auto g = parse_dim3(grid);
        if (!g) return fail(fmt::format("--grid '{}' is not XxY, XxYxZ or auto", grid));
        o.launch.grid = *g;
        o.launch.auto_grid = false;
    }
    const auto m = parse_mapping(mapping);
    if (!m) return fail(fmt::format("unknown --mapping '{}': choose one of {}", mapping, mapping_names()));
    o.launch.mapping = *m;
    const auto v = parse_view(view);
    if (!v)
        return fail(fmt::format("unknown --view '{}': choose pixels, block, thread, warp, lane, linear or sm", view));
    o.view = *v;
    if (tutorial) o.launch = tutorial_preset();
    if (backend != "auto") {
        o.backend = parse_backend(backend);
        if (!o.backend)
            return fail(fmt::format("unknown --backend '{}': choose cuda-interop, cuda-staged, cpu or auto", backend));
    }
    const auto p = parse_present(present);
    if (!p) return fail(fmt::format("unknown --present '{}': choose pbo, texture or surface", present));
    o.present = *p;
    if (!o.headless && (!o.out.empty() || o.json)) return fail("--out and --json need --headless");
    if (!o.out.empty()) { // before any frame is rendered
        if (auto e = output_format_error(o.out)) return fail("--out: " + *e);
        if (auto e = output_path_error(o.out)) return fail("--out: " + *e);
    }
    return o;
}

PaintJob job_from_options(const Options& o) {
    PaintJob job;
    job.op = find_op(o.op)->index;
    job.params = o.params;
    job.params.width = o.width;
    job.params.height = o.height;
    job.params.weight = o.weight;
    job.params.cell = o.cell;
    job.launch = o.launch;
    job.view = o.view;
    return job;
}

} // namespace kc
