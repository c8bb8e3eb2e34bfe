#include "app/cli/headless.h"
#include "app/cli/timeline_out.h"

#include "app/cli/ab_headless.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <vector>

#include "app/core/kernel_files.h"
#include "app/core/watchdog.h"
#include "gpu/cpu_emulator.h"
#include "gpu/ops/roofline.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/cpu_user_kernel.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/image_io.h"
#include "render/io/source_images.h"
#ifdef KC_HAVE_CUDA
#include "gpu/cuda_device.h"
#endif

namespace kc {

nlohmann::json stats_json(const TimingStats& s) {
    return {{"samples", s.count()},
            {"last_us", s.last()},
            {"median_us", s.median()},
            {"mean_us", s.mean()},
            {"min_us", s.min()}};
}

namespace {

// Luminance histogram summary: pixels counted, mean gray level, fullest bin.
nlohmann::json histogram_json(const OpOutputs& out) {
    nlohmann::json j = nlohmann::json::object();
    const char* names[4] = {"luminance", "r", "g", "b"};
    for (int h = 0; h < 4; ++h) j[names[h]] = out.histogram[h];
    if (out.histogram_mismatches >= 0) j["variant_mismatched_bins"] = out.histogram_mismatches;
    return j;
}

// What ran: the backend, the device, the times and the op's outputs besides pixels.
struct RunReport {
    std::string_view backend;
    std::string device;
    const StageTimes& times;
    const OpOutputs& outputs;
    FrameRoute route = FrameRoute::HostUpload; // the last frame's way into the texture (or the file)
    std::string why_copied;                    // present direct, copied anyway: why
    double copy_gbs = 0;                       // the roofline's copy bandwidth (CUDA backends), 0: none stated
};

// The variant's short name as --variant takes it ("tiled").
std::string variant_label(int v) { return std::string(find_param("variant")->choices[v]); }

// The roofline of the median kernel time and of each variant's (ops/roofline.h), CUDA only.
// `inputs_read` is false where the op computed an image it would read (no --image): then the
// figures describe a kernel that reads less than the roofline counts (generated_inputs_note).
void roofline_json(nlohmann::json& j, const Options& o, const OpInfo& op, const PaintJob& job, const RunReport& r) {
    const int w = job.params.width, h = job.params.height;
    const std::string line = roofline_text("kernel", op, w, h, r.times.kernel.median(), r.copy_gbs);
    if (line.empty()) return;
    const unsigned generated = generated_inputs(op, !o.image.empty(), !o.image2.empty());
    j["roofline"] = {{"copy_gbs", r.copy_gbs},
                     {"copy_us", roofline_copy_us(op, w, h, r.copy_gbs)},
                     {"percent", percent_of_roofline(op, w, h, r.times.kernel.median(), r.copy_gbs)},
                     {"inputs_read", generated == 0},
                     {"text", generated ? generated_inputs_note(generated) : line}};
    for (int v = 0; !generated && op.variants > 1 && v < op.variants; ++v)
        if (!r.times.variant[v].empty())
            j["roofline"]["variants"][variant_label(v)] =
                roofline_text(variant_label(v), op, w, h, r.times.variant[v].median(), r.copy_gbs);
}

// Bytes read and written per frame, for the bandwidth figures.
double frame_bytes(const OpInfo& op, const PaintJob& job) {
    return double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * job.params.width * job.params.height;
}

double per_kernel_ms(double amount, const TimingStats& kernel) {
    return kernel.empty() || amount == 0.0 ? 0.0 : amount / (kernel.median() * 1e3);
}

// `resolved` is the launch the kernels ran: a custom op's own block and grid, not --block's.
void json_report(const Options& o, const PaintJob& job, const ResolvedLaunch& resolved, const RunReport& r) {
    const OpInfo& op = op_registry()[job.op];
    const StageTimes& t = r.times;
    const double flops = op.flops(job.params), bytes = frame_bytes(op, job);
    nlohmann::json j = {{"op", op.name},
                        {"width", job.params.width},
                        {"height", job.params.height},
                        {"block", to_string(resolved.launch.block)},
                        {"grid", to_string(resolved.grid)},
                        {"mapping", mapping_name(resolved.launch.mapping)},
                        {"launch", resolved.own ? "the op's own" : "the command line's"},
                        {"view", view_name(job.view)},
                        {"backend", r.backend},
                        {"present", r.backend == "cuda-interop" ? present_name(o.present) : "upload"},
                        {"route", route_name(r.route)},
                        {"device", r.device},
                        {"frames", o.frames},
                        {"bytes_per_frame", bytes},
                        {"kernel", stats_json(t.kernel)},
                        {"kernel_gbs", per_kernel_ms(bytes, t.kernel)}};
    if (op.variants > 1) {
        j["variant"] = op.variant_names[job.params.variant];
        for (int v = 0; v < op.variants; ++v)
            if (!t.variant[v].empty()) j[fmt::format("variant{}", v)] = stats_json(t.variant[v]);
    }
    roofline_json(j, o, op, job, r);
    if (flops > 0) j["gflops"] = per_kernel_ms(flops, t.kernel);
    if (!r.why_copied.empty()) j["copied_because"] = r.why_copied;
    if (op.makes_histogram && r.outputs.has_histogram) j["histogram"] = histogram_json(r.outputs);
    if (op.user_code) j["kernel_mode"] = to_string(o.kernel_mode);
    if (op.user_code && r.outputs.has_violations)
        j["out_of_range"] = {{"count", r.outputs.violations.count}, {"first", describe(r.outputs.violations)}};
    for (auto [name, stats] : {std::pair{"map", &t.map}, {"unmap", &t.unmap}, {"copy", &t.copy}, {"upload", &t.upload}})
        if (!stats->empty()) j[name] = stats_json(*stats);
    fmt::print("{}\n", j.dump(2));
}

void histogram_line(const OpOutputs& outputs) {
    long long total = 0, sum = 0;
    for (int i = 0; i < 256; ++i) total += outputs.histogram[0][i], sum += 1LL * i * outputs.histogram[0][i];
    fmt::print("  histogram: {} pixels, mean luminance {:.2f}{}\n", total, total ? double(sum) / total : 0.0,
               outputs.histogram_mismatches < 0
                   ? std::string()
                   : fmt::format(", global vs shared: {} bins differ", outputs.histogram_mismatches));
}

void text_report(const Options& o, const PaintJob& job, const ResolvedLaunch& resolved, const RunReport& r) {
    const OpInfo& op = op_registry()[job.op];
    const StageTimes& t = r.times;
    const double flops = op.flops(job.params), bytes = frame_bytes(op, job);
    fmt::print("{} {}x{}  block {}  grid {}  mapping {}{}  view {}\n", op.name, job.params.width, job.params.height,
               to_string(resolved.launch.block), to_string(resolved.grid), mapping_name(resolved.launch.mapping),
               resolved.own ? " (the op's own)" : "", view_name(job.view));
    fmt::print("backend {} on {}, {} frames\n", r.backend, r.device, o.frames);
    if (r.backend == "cuda-interop")
        fmt::print("present {}: {}\n", present_name(o.present),
                   r.route == FrameRoute::Direct ? "the kernel wrote the texture directly, no copy"
                   : r.why_copied.empty()        ? std::string(route_name(r.route))
                                                 : "copied, as " + r.why_copied);
    auto line = [](const char* name, const TimingStats& s) {
        if (!s.empty())
            fmt::print("  {:<7} median {:9.1f} us   mean {:9.1f}   min {:9.1f}   last {:9.1f}\n", name, s.median(),
                       s.mean(), s.min(), s.last());
    };
    line("kernel", t.kernel);
    if (!t.kernel.empty())
        fmt::print("  {:<7} {:.1f} GB/s ({:.0f} bytes per frame at the median)\n", "", per_kernel_ms(bytes, t.kernel),
                   bytes);
    if (flops > 0 && !t.kernel.empty())
        fmt::print("  {:<7} {:.1f} GFLOP/s ({:.3g} flop per frame)\n", "", per_kernel_ms(flops, t.kernel), flops);
    if (const std::string line =
            roofline_text("kernel", op, job.params.width, job.params.height, t.kernel.median(), r.copy_gbs);
        !line.empty()) {
        const unsigned generated = generated_inputs(op, !o.image.empty(), !o.image2.empty());
        fmt::print("  {:<7} {}{}\n", "", generated ? generated_inputs_note(generated) : line,
                   generated ? "" : " at the median");
    }
    if (op.variants > 1) {
        fmt::print("  variant: {}\n", op.variant_names[job.params.variant]);
        for (int v = 0; v < op.variants; ++v)
            if (!t.variant[v].empty())
                fmt::print("  {:<40} median {:9.1f} us\n", op.variant_names[v], t.variant[v].median());
    }
    if (op.makes_histogram && r.outputs.has_histogram) histogram_line(r.outputs);
    line("map", t.map);
    line("unmap", t.unmap);
    line("copy", t.copy);
    line("upload", t.upload);
}

void report(const Options& o, const PaintJob& job, const ResolvedLaunch& resolved, const RunReport& r) {
    (o.json ? json_report : text_report)(o, job, resolved, r);
}

// Writes --out, if given; false (and a message) when it cannot.
bool write_out(const Options& o, int width, int height, const std::vector<Pixel>& pixels) {
    if (o.out.empty()) return true;
    if (auto e = write_image(o.out, width, height, pixels)) {
        fmt::print(stderr, "kcanvas: {}\n", *e);
        return false;
    }
    return true;
}

} // namespace

KernelSource kernel_source(const Options& o) {
    return {o.kernel_source.empty() ? std::string(default_starter().source) : o.kernel_source,
            o.kernel_path.empty() ? std::string(default_starter().name) + ".cu" : file_name_of(o.kernel_path)};
}

// What compiling the user's kernel said; the exit code when it did not compile.
std::optional<int> compiled(const Options& o, const KernelSource& k, const KernelCompile& c) {
    if (!c.ok) {
        fmt::print(stderr, "kcanvas: {} does not compile:\n{}\n", k.name, c.log);
        return 2;
    }
    if (!o.json)
        fmt::print(stderr, "kcanvas: compiled {} for {} in {:.0f} ms ({} mode)\n", k.name, c.target, c.milliseconds,
                   to_string(c.mode));
    if (!c.log.empty()) fmt::print(stderr, "{}\n", c.log); // warnings
    return std::nullopt;
}

namespace {

// The last frame's out-of-range accesses of the user's kernel (checked mode), on stderr; 2 with --strict.
int out_of_range_exit(const Options& o, const OpOutputs& outputs) {
    if (!outputs.has_violations || outputs.violations.count == 0) return 0;
    fmt::print(stderr, "kcanvas: your kernel {} out of range: {}{}\n",
               outputs.violations.first.write ? "wrote" : "read", describe(outputs.violations),
               o.strict ? "" : " (exit 0: --strict makes it exit 2)");
    return o.strict ? 2 : 0;
}

// The CPU backend needs no GL: used headless when no EGL device exists (CI, laptops).
int run_without_gl(const Options& o, PaintJob job, const SourceImages& sources, const KernelSource& kernel) {
    CpuGridEmulator emulator;
    CpuUserKernel user_kernel; // the user's kernel, compiled for the CPU and run in the sandbox
    user_kernel.set_time_limit(o.kernel_time_limit());
    const bool user_code = op_registry()[job.op].user_code;
    if (user_code)
        if (auto exit = compiled(o, kernel, user_kernel.compile(kernel.source, kernel.name, o.kernel_mode)))
            return *exit;
    OpOutputs outputs;
    job.params.src_a = sources.fitted(0);
    job.params.src_b = sources.fitted(1);
    const ResolvedLaunch resolved = resolve_launch(job, universal_limits());
    std::vector<Pixel> pixels(std::size_t(job.params.width) * job.params.height);
    StageTimes times;
    std::optional<BlockTimeline> timeline; // --timeline-out: the last frame's
    PixelRecord record;
    if (!o.timeline_out.empty()) {
        timeline = BlockTimeline{.source = TimelineSource::CpuWorkers,
                                 .op = job.op,
                                 .block = resolved.launch.block,
                                 .grid = resolved.grid,
                                 .blocks = std::vector<BlockTime>(std::size_t(resolved.grid.count())),
                                 .resolution_ns = steady_clock_step_ns()};
        record.blocks = timeline->blocks.data();
    }
    for (int f = 0; f < o.frames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        job.params.seconds = f / 60.0f; // as run_with_gl's frames
        auto error = user_code ? user_kernel.paint(job, resolved, pixels.data(), job.params.src_a, job.params.src_b,
                                                   nullptr, outputs)
                               : emulator.paint(job, resolved, pixels.data(), &outputs, record);
        if (error) {
            fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
            return 2;
        }
        times.kernel.add(micros_since(t0));
    }
    const std::string device = fmt::format("CPU grid emulator ({} threads), no GL", emulator.workers());
    report(o, job, resolved, {"cpu", device, times, outputs, FrameRoute::HostUpload, ""});
    if (!write_out(o, job.params.width, job.params.height, pixels) || !write_timeline_out(o, timeline, device))
        return 2;
    return user_code ? out_of_range_exit(o, outputs) : 0;
}

} // namespace

std::optional<int> load_inputs(Options& o, SourceImages& sources) {
    for (auto [slot, path] : {std::pair{0, &o.image}, {1, &o.image2}}) {
        if (path->empty() || (slot == 1 && o.image.empty())) continue;
        if (auto e = sources.load(slot, *path)) {
            fmt::print(stderr, "kcanvas: --image{}: {}\n", slot ? "2" : "", *e);
            return 2;
        }
    }
    if (sources.loaded(0) && !o.size_given) o.width = sources.original(0).width, o.height = sources.original(0).height;
    sources.fit(o.width, o.height);
    return std::nullopt;
}

DeviceChoice choose_device(const Options& o, bool user_code) {
    DeviceChoice choice;
    if (o.backend == Backend::Cpu) return choice; // the user's kernel compiles for the CPU (sandboxed)
    std::string no_cuda = "this kcanvas was built without CUDA";
#ifdef KC_HAVE_CUDA
    const auto why_no_cuda = cuda_unavailable_reason();
    if (why_no_cuda) no_cuda = *why_no_cuda;
    if (o.backend != Backend::Cpu && !why_no_cuda) choice.cuda_device = o.gpu.value_or(0);
#endif
    if (!user_code || (!o.backend && choice.cuda_device < 0)) return choice; // no GPU: the cpu backend runs it
    if (choice.cuda_device < 0) {
        fmt::print(stderr, "kcanvas: your kernel needs a CUDA GPU: {}\n", no_cuda);
        choice.exit = 1;
    } else if (auto why = nvrtc_unavailable_reason()) {
        fmt::print(stderr, "kcanvas: {}\n", *why);
        choice.exit = 1;
    }
    return choice;
}

namespace {

// Compiles the user's kernel into the painter; the exit code when it does not compile.
std::optional<int> compile_kernel(const Options& o, FramePainter& painter, const KernelSource& k) {
    return compiled(o, k, painter.compile_user_kernel(k.source, k.name, o.kernel_mode));
}

// Paints --frames frames and waits for the last; the exit code when the launch is refused.
std::optional<int> paint_frames(const Options& o, const PaintJob& job, const ResolvedLaunch& resolved,
                                FramePainter& painter, Canvas& canvas, const SourceImages& sources,
                                Watchdog& watchdog) {
    PaintJob frame_job = job;
    for (int f = 0; f < o.frames; ++f) {
        frame_job.params.seconds = f / 60.0f; // animated kernels see 60 frames per second, reproducibly
        if (auto error = painter.paint(frame_job, resolved, canvas, &sources)) {
            fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
            return 2;
        }
        painter.collect_timings();
        watchdog.beat();
    }
    glFinish();
    painter.collect_timings(true);
    return std::nullopt;
}

} // namespace

std::string device_with_index(const FramePainter& painter) {
    const std::string name = painter.device().name;
    if (painter.backend() == Backend::Cpu || painter.cuda_device() < 0) return name;
    return fmt::format("{} (CUDA device {})", name, painter.cuda_device());
}

namespace {

// The run on a GL context: the painter's backend, its frames, the report and --out.
int run_with_gl(const Options& o, const PaintJob& job, const SourceImages& sources, const KernelSource& kernel,
                const EglHeadlessContext& context) {
    const bool user_code = op_registry()[job.op].user_code;
    FramePainter painter(o.backend, o.gpu);
    painter.set_present(o.present);
    painter.set_kernel_time_limit(o.kernel_time_limit());
    painter.record_timeline(!o.timeline_out.empty());
    Watchdog watchdog(std::chrono::seconds(o.watchdog_s));
    watchdog.arm(painter.backend() != Backend::Cpu);
    if (user_code) {
        watchdog.rescue(kernel.source);
        if (auto exit = compile_kernel(o, painter, kernel)) return *exit;
    }
    Canvas canvas(job.params.width, job.params.height); // releases its CUDA registrations before its GL objects
    const ResolvedLaunch resolved = resolve_launch(job, painter.limits()); // once: every frame's launch is the same
    if (auto exit = paint_frames(o, job, resolved, painter, canvas, sources, watchdog)) return *exit;
    watchdog.arm(false); // the GPU has answered; writing a large PNG may take long on the CPU alone
    report(o, job, resolved,
           {backend_name(painter.backend()), device_with_index(painter) + " / " + context.description(),
            painter.times(), painter.outputs(), painter.route(), painter.why_copied(), painter.copy_gbs()});
    if (!write_out(o, canvas.width(), canvas.height(), canvas.read_texture())) return 2;
    if (!write_timeline_out(o, painter.timeline(), device_with_index(painter))) return 2;
    return user_code ? out_of_range_exit(o, painter.outputs()) : 0;
}

} // namespace

int run_headless(const Options& options) {
    if (options.ab) return run_ab_headless(options);
    Options o = options;
    SourceImages sources;
    if (auto exit = load_inputs(o, sources)) return *exit;
    const PaintJob job = job_from_options(o);
    // The limits every CUDA GPU shares are checked before any device is touched.
    if (auto refusal = resolve_launch(job, universal_limits()).refusal) {
        fmt::print(stderr, "kcanvas: launch refused: {}\n", *refusal);
        return 2;
    }
    if (auto refusal = timeline_job_refusal(o, job, resolve_launch(job, universal_limits()).grid)) {
        fmt::print(stderr, "kcanvas: {}\n", *refusal);
        return 2;
    }
    const bool user_code = op_registry()[job.op].user_code;
    const DeviceChoice device = choose_device(o, user_code);
    if (device.exit) return *device.exit;
    const KernelSource kernel = kernel_source(o);
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(device.cuda_device);
    } catch (const ContextError& e) {
        if (o.backend == Backend::Cpu || (!o.backend && device.cuda_device < 0)) {
            if (!o.json)
                fmt::print(stderr, "kcanvas: no headless OpenGL ({}); the CPU backend runs without it\n", e.what());
            return run_without_gl(o, job, sources, kernel);
        }
        fmt::print(stderr, "kcanvas: cannot render headless: {}\n", e.what());
        return 1;
    }
    try {
        return run_with_gl(o, job, sources, kernel, *context);
    } catch (const CudaContextLost& e) {
        // The painter and its CUDA objects are gone by now (their errors may have printed above).
        fmt::print(stderr, "kcanvas: {}\n",
                   kernel_fault_message(e.what(), user_code ? save_faulted_kernel(kernel.source) : ""));
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
}

} // namespace kc
