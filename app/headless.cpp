#include "headless.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "cpu_emulator.h"
#include "gl_context.h"
#include "image_io.h"
#include "kernel_files.h"
#include "registry.h"
#include "source_images.h"
#include "watchdog.h"
#ifdef KC_HAVE_CUDA
#include "cuda_device.h"
#endif

namespace kc {

namespace {

nlohmann::json stats_json(const TimingStats& s) {
    return {{"samples", s.count()},
            {"last_us", s.last()},
            {"median_us", s.median()},
            {"mean_us", s.mean()},
            {"min_us", s.min()}};
}

// Luminance histogram summary: pixels counted, mean gray level, fullest bin.
nlohmann::json histogram_json(const OpOutputs& out) {
    nlohmann::json j = nlohmann::json::object();
    const char* names[4] = {"luminance", "r", "g", "b"};
    for (int h = 0; h < 4; ++h) j[names[h]] = out.histogram[h];
    if (out.histogram_mismatches >= 0) j["variant_mismatched_bins"] = out.histogram_mismatches;
    return j;
}

void report(const Options& o, const PaintJob& job, std::string_view backend, const std::string& device,
            const StageTimes& t, const OpOutputs& outputs) {
    const OpInfo& op = op_registry()[job.op];
    const double flops = op.flops(job.params);
    const double gflops = t.kernel.empty() || flops == 0.0 ? 0.0 : flops / (t.kernel.median() * 1e3);
    // What the kernels launch: a custom op's own block and grid, not the --block the job holds.
    const LaunchConfig launch = effective_launch(job);
    const Dim3 grid = resolved_grid(launch, job.params.width, job.params.height);
    const double bytes =
        double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * job.params.width * job.params.height;
    const double gbs = t.kernel.empty() ? 0.0 : bytes / (t.kernel.median() * 1e3);
    if (o.json) {
        nlohmann::json j = {{"op", op.name},
                            {"width", job.params.width},
                            {"height", job.params.height},
                            {"block", to_string(launch.block)},
                            {"grid", to_string(grid)},
                            {"mapping", mapping_name(launch.mapping)},
                            {"launch", op.custom ? "the op's own" : "the command line's"},
                            {"view", view_name(job.view)},
                            {"backend", backend},
                            {"present", backend == "cuda-interop" ? present_name(o.present) : "upload"},
                            {"device", device},
                            {"frames", o.frames},
                            {"bytes_per_frame", bytes},
                            {"kernel", stats_json(t.kernel)},
                            {"kernel_gbs", gbs}};
        if (op.variants == 2) {
            j["variant"] = op.variant_names[job.params.variant];
            for (int v = 0; v < 2; ++v)
                if (!t.variant[v].empty()) j[v == 0 ? "variant0" : "variant1"] = stats_json(t.variant[v]);
        }
        if (flops > 0) j["gflops"] = gflops;
        if (op.makes_histogram && outputs.has_histogram) j["histogram"] = histogram_json(outputs);
        for (auto [name, stats] :
             {std::pair{"map", &t.map}, {"unmap", &t.unmap}, {"copy", &t.copy}, {"upload", &t.upload}})
            if (!stats->empty()) j[name] = stats_json(*stats);
        fmt::print("{}\n", j.dump(2));
        return;
    }
    fmt::print("{} {}x{}  block {}  grid {}  mapping {}{}  view {}\n", op.name, job.params.width, job.params.height,
               to_string(launch.block), to_string(grid), mapping_name(launch.mapping),
               op.custom ? " (the op's own)" : "", view_name(job.view));
    fmt::print("backend {} on {}, {} frames\n", backend, device, o.frames);
    auto line = [](const char* name, const TimingStats& s) {
        if (!s.empty())
            fmt::print("  {:<7} median {:9.1f} us   mean {:9.1f}   min {:9.1f}   last {:9.1f}\n", name, s.median(),
                       s.mean(), s.min(), s.last());
    };
    line("kernel", t.kernel);
    if (!t.kernel.empty()) fmt::print("  {:<7} {:.1f} GB/s ({:.0f} bytes per frame at the median)\n", "", gbs, bytes);
    if (flops > 0 && !t.kernel.empty())
        fmt::print("  {:<7} {:.1f} GFLOP/s ({:.3g} flop per frame)\n", "", gflops, flops);
    if (op.variants == 2) {
        fmt::print("  variant: {}\n", op.variant_names[job.params.variant]);
        for (int v = 0; v < 2; ++v)
            if (!t.variant[v].empty())
                fmt::print("  {:<30} median {:9.1f} us\n", op.variant_names[v], t.variant[v].median());
    }
    if (op.makes_histogram && outputs.has_histogram) {
        long long total = 0, sum = 0;
        for (int i = 0; i < 256; ++i) total += outputs.histogram[0][i], sum += 1LL * i * outputs.histogram[0][i];
        fmt::print("  histogram: {} pixels, mean luminance {:.2f}{}\n", total, total ? double(sum) / total : 0.0,
                   outputs.histogram_mismatches < 0
                       ? std::string()
                       : fmt::format(", global vs shared: {} bins differ", outputs.histogram_mismatches));
    }
    line("map", t.map);
    line("unmap", t.unmap);
    line("copy", t.copy);
    line("upload", t.upload);
}

// The CPU backend needs no GL: used headless when no EGL device exists (CI, laptops).
int run_without_gl(const Options& o, PaintJob job, const SourceImages& sources) {
    CpuGridEmulator emulator;
    OpOutputs outputs;
    job.params.src_a = sources.fitted(0);
    job.params.src_b = sources.fitted(1);
    std::vector<Pixel> pixels(std::size_t(job.params.width) * job.params.height);
    StageTimes times;
    for (int f = 0; f < o.frames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        if (auto error = emulator.paint(job, pixels.data(), &outputs)) {
            fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
            return 2;
        }
        times.kernel.add(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    report(o, job, "cpu", fmt::format("CPU grid emulator ({} threads), no GL", emulator.workers()), times, outputs);
    if (!o.out.empty()) {
        if (auto e = write_image(o.out, job.params.width, job.params.height, pixels)) {
            fmt::print(stderr, "kcanvas: {}\n", *e);
            return 2;
        }
    }
    return 0;
}

} // namespace

int run_headless(const Options& options) {
    // Input images first: a bad file is bad input (exit 2) before any device is touched.
    Options o = options;
    SourceImages sources;
    if (!o.image.empty()) {
        if (auto e = sources.load(0, o.image)) {
            fmt::print(stderr, "kcanvas: --image: {}\n", *e);
            return 2;
        }
        if (!o.size_given) o.width = sources.original(0).width, o.height = sources.original(0).height;
        if (!o.image2.empty()) {
            if (auto e = sources.load(1, o.image2)) {
                fmt::print(stderr, "kcanvas: --image2: {}\n", *e);
                return 2;
            }
        }
    }
    sources.fit(o.width, o.height);
    const PaintJob job = job_from_options(o);
    // The limits every CUDA GPU shares are checked before any device is touched.
    if (auto plan = plan_paint(job, universal_limits()); plan.error) {
        fmt::print(stderr, "kcanvas: launch refused: {}\n", *plan.error);
        return 2;
    }

    const bool user_code = op_registry()[job.op].user_code;
    if (user_code && o.backend == Backend::Cpu) {
        fmt::print(stderr, "kcanvas: launch refused: {}; choose --backend cuda-interop or cuda-staged (a CUDA GPU)\n",
                   kCpuCannotRunUserCode);
        return 2;
    }

    int cuda_device = -1;
    std::string no_cuda = "this kcanvas was built without CUDA";
#ifdef KC_HAVE_CUDA
    const auto why_no_cuda = cuda_unavailable_reason();
    if (why_no_cuda) no_cuda = *why_no_cuda;
    if (o.backend != Backend::Cpu && !why_no_cuda) cuda_device = 0;
#endif
    if (user_code && cuda_device < 0) {
        fmt::print(stderr, "kcanvas: your kernel needs a CUDA GPU: {}\n", no_cuda);
        return 1;
    }
    if (auto why = nvrtc_unavailable_reason(); user_code && why) {
        fmt::print(stderr, "kcanvas: {}\n", *why);
        return 1;
    }
    // Without --kernel, user_kernel runs the default starter (the gradient).
    const std::string kernel_source = o.kernel_source.empty() ? std::string(default_starter().source) : o.kernel_source;
    const std::string kernel_name =
        o.kernel_path.empty() ? std::string(default_starter().name) + ".cu" : file_name_of(o.kernel_path);
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(cuda_device);
    } catch (const ContextError& e) {
        if (o.backend == Backend::Cpu || (!o.backend && cuda_device < 0)) {
            if (!o.json)
                fmt::print(stderr, "kcanvas: no headless OpenGL ({}); the CPU backend runs without it\n", e.what());
            return run_without_gl(o, job, sources);
        }
        fmt::print(stderr, "kcanvas: cannot render headless: {}\n", e.what());
        return 1;
    }

    try {
        FramePainter painter(o.backend);
        painter.set_present(o.present);
        Watchdog watchdog(std::chrono::seconds(o.watchdog_s));
        watchdog.arm(painter.backend() != Backend::Cpu);
        if (user_code) {
            watchdog.rescue(kernel_source);
            const KernelCompile k = painter.compile_user_kernel(kernel_source, kernel_name);
            if (!k.ok) {
                fmt::print(stderr, "kcanvas: {} does not compile:\n{}\n", kernel_name, k.log);
                return 2;
            }
            if (!o.json)
                fmt::print(stderr, "kcanvas: compiled {} for {} in {:.0f} ms\n", kernel_name, k.target, k.milliseconds);
            if (!k.log.empty()) fmt::print(stderr, "{}\n", k.log); // warnings
        }
        Canvas canvas(job.params.width, job.params.height);
        PaintJob frame_job = job;
        for (int f = 0; f < o.frames; ++f) {
            frame_job.params.seconds = f / 60.0f; // animated kernels see 60 frames per second, reproducibly
            if (auto error = painter.paint(frame_job, canvas, &sources)) {
                fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
                return 2;
            }
            painter.collect_timings();
            watchdog.beat();
        }
        glFinish();
        painter.collect_timings(true);
        watchdog.arm(false); // the GPU has answered; writing a large PNG may take long on the CPU alone
        report(o, job, backend_name(painter.backend()), painter.device().name + " / " + context->description(),
               painter.times(), painter.outputs());
        if (!o.out.empty()) {
            if (auto e = write_image(o.out, canvas.width(), canvas.height(), canvas.read_texture())) {
                fmt::print(stderr, "kcanvas: {}\n", *e);
                return 2;
            }
        }
    } catch (const CudaContextLost& e) {
        // The painter and its CUDA objects are gone by now (their errors may have printed above).
        fmt::print(stderr, "kcanvas: {}\n",
                   kernel_fault_message(e.what(), user_code ? save_faulted_kernel(kernel_source) : ""));
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
    return 0;
}

} // namespace kc
