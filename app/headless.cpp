#include "headless.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "cpu_emulator.h"
#include "gl_context.h"
#include "image_io.h"
#include "registry.h"
#ifdef KC_HAVE_CUDA
#include "cuda_device.h"
#endif

namespace kc {

namespace {

nlohmann::json stats_json(const TimingStats& s) {
    return {{"samples", s.count()}, {"last_us", s.last()}, {"median_us", s.median()}, {"mean_us", s.mean()}, {"min_us", s.min()}};
}

void report(const Options& o, const PaintJob& job, std::string_view backend, const std::string& device,
            const StageTimes& t) {
    const OpInfo& op = op_registry()[job.op];
    const Dim3 grid = resolved_grid(job.launch, job.params.width, job.params.height);
    const double bytes = double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * job.params.width * job.params.height;
    const double gbs = t.kernel.empty() ? 0.0 : bytes / (t.kernel.median() * 1e3);
    if (o.json) {
        nlohmann::json j = {{"op", op.name},
                            {"width", job.params.width},
                            {"height", job.params.height},
                            {"block", to_string(job.launch.block)},
                            {"grid", to_string(grid)},
                            {"mapping", mapping_name(job.launch.mapping)},
                            {"view", view_name(job.view)},
                            {"backend", backend},
                            {"present", backend == "cuda-interop" ? present_name(o.present) : "upload"},
                            {"device", device},
                            {"frames", o.frames},
                            {"bytes_per_frame", bytes},
                            {"kernel", stats_json(t.kernel)},
                            {"kernel_gbs", gbs}};
        for (auto [name, stats] : {std::pair{"map", &t.map}, {"unmap", &t.unmap}, {"copy", &t.copy}, {"upload", &t.upload}})
            if (!stats->empty()) j[name] = stats_json(*stats);
        fmt::print("{}\n", j.dump(2));
        return;
    }
    fmt::print("{} {}x{}  block {}  grid {}  mapping {}  view {}\n", op.name, job.params.width, job.params.height,
               to_string(job.launch.block), to_string(grid), mapping_name(job.launch.mapping), view_name(job.view));
    fmt::print("backend {} on {}, {} frames\n", backend, device, o.frames);
    auto line = [](const char* name, const TimingStats& s) {
        if (!s.empty())
            fmt::print("  {:<7} median {:9.1f} us   mean {:9.1f}   min {:9.1f}   last {:9.1f}\n", name, s.median(), s.mean(),
                       s.min(), s.last());
    };
    line("kernel", t.kernel);
    if (!t.kernel.empty()) fmt::print("  {:<7} {:.1f} GB/s ({:.0f} bytes per frame at the median)\n", "", gbs, bytes);
    line("map", t.map);
    line("unmap", t.unmap);
    line("copy", t.copy);
    line("upload", t.upload);
}

// The CPU backend needs no GL: used headless when no EGL device exists (CI, laptops).
int run_without_gl(const Options& o, const PaintJob& job) {
    CpuGridEmulator emulator;
    std::vector<Pixel> pixels(std::size_t(job.params.width) * job.params.height);
    StageTimes times;
    for (int f = 0; f < o.frames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        if (auto error = emulator.paint(job, pixels.data())) {
            fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
            return 2;
        }
        times.kernel.add(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    report(o, job, "cpu", fmt::format("CPU grid emulator ({} threads), no GL", emulator.workers()), times);
    if (!o.out.empty()) {
        if (auto e = write_image(o.out, job.params.width, job.params.height, pixels)) {
            fmt::print(stderr, "kcanvas: {}\n", *e);
            return 2;
        }
    }
    return 0;
}

} // namespace

int run_headless(const Options& o) {
    const PaintJob job = job_from_options(o);
    // The limits every CUDA GPU shares are checked before any device is touched.
    if (auto plan = plan_paint(job, universal_limits()); plan.error) {
        fmt::print(stderr, "kcanvas: launch refused: {}\n", *plan.error);
        return 2;
    }

    int cuda_device = -1;
#ifdef KC_HAVE_CUDA
    if (o.backend != Backend::Cpu && !cuda_unavailable_reason()) cuda_device = 0;
#endif
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(cuda_device);
    } catch (const ContextError& e) {
        if (o.backend == Backend::Cpu || (!o.backend && cuda_device < 0)) {
            if (!o.json) fmt::print(stderr, "kcanvas: no headless OpenGL ({}); the CPU backend runs without it\n", e.what());
            return run_without_gl(o, job);
        }
        fmt::print(stderr, "kcanvas: cannot render headless: {}\n", e.what());
        return 1;
    }

    try {
        FramePainter painter(o.backend);
        painter.set_present(o.present);
        Canvas canvas(job.params.width, job.params.height);
        for (int f = 0; f < o.frames; ++f) {
            if (auto error = painter.paint(job, canvas)) {
                fmt::print(stderr, "kcanvas: launch refused: {}\n", *error);
                return 2;
            }
            painter.collect_timings();
        }
        glFinish();
        painter.collect_timings(true);
        report(o, job, backend_name(painter.backend()), painter.device().name + " / " + context->description(), painter.times());
        if (!o.out.empty()) {
            if (auto e = write_image(o.out, canvas.width(), canvas.height(), canvas.read_texture())) {
                fmt::print(stderr, "kcanvas: {}\n", *e);
                return 2;
            }
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
    return 0;
}

} // namespace kc
