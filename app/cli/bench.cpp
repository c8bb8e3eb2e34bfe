#include "app/cli/bench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>

#include "app/core/block_sweep.h"
#include "app/core/watchdog.h"
#include "gpu/ops/roofline.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"
#include "render/gl_context.h"
#include "render/gl_timer.h"
#include "render/io/atomic_file.h"
#include "render/io/source_images.h"
#ifdef KC_HAVE_CUDA
#include "gpu/copy_bandwidth.h"
#include "gpu/cuda_device.h"
#include "gpu/cuda_paint.h"
#include "gpu/cuda_raii.h"
#include "gpu/ops/matmul_cuda.h"
#include "render/cuda_gl_buffer.h"
#endif

namespace kc {

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

// Median time of a device-to-device copy of `bytes` (the bandwidth floor every op is compared to;
// measured where the app measures it, copy_bandwidth.h).
double copy_median_us(std::size_t bytes, int reps) {
#ifdef KC_HAVE_CUDA
    return time_device_copy_us(bytes, 10, reps);
#else
    (void)bytes, (void)reps;
    return 0.0;
#endif
}

// An offscreen target the size of the canvas: "draw" in a headless frame means drawing here.
struct Screen {
    int w, h;
    GlTexture colour = GlTexture::create();
    GlFramebuffer fbo = GlFramebuffer::create();
    Screen(int width, int height) : w(width), h(height) {
        glBindTexture(GL_TEXTURE_2D, colour.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindTexture(GL_TEXTURE_2D, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour.id(), 0);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    void draw(Canvas& canvas) const {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo.id());
        canvas.draw({0, 0, w, h});
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
};

// Random input images, so the ops that read A and B move real bytes (without images they compute
// the gradient and checkerboard instead of reading them).
Image noise_image(int w, int h, unsigned seed) {
    Image img{w, h, std::vector<Pixel>(std::size_t(w) * h)};
    std::uint32_t state = seed * 747796405u + 1;
    for (Pixel& p : img.pixels) {
        state = state * 1664525u + 1013904223u;
        p = Pixel{std::uint8_t(state >> 8), std::uint8_t(state >> 16), std::uint8_t(state >> 24), 255};
    }
    return img;
}

// One timed configuration. pct_of_copy is the roofline: the op's bytes read + written per second
// over a device copy's (see ops/roofline.h); gflops is arithmetic per second where the op counts it.
// route: which way the frames reached the texture (FrameRoute); floor_us: the streamed CUDA<->GL
// hand-over plus the streamed draw of this size, measured in the same run (0 without interop).
struct Row {
    std::string op, size, backend, present, block, mapping, variant;
    int pixels_per_thread;
    double frame_us, streamed_us, draw_us, kernel_us, gbs, copy_gbs, pct_of_copy, map_us, unmap_us, copy_us, upload_us,
        gflops;
    std::string route = "-";
    double floor_us = 0;
    double over_floor() const { return floor_us > 0 ? streamed_us / floor_us : 0.0; }
};

bool parse_size(const std::string& s, int& w, int& h) {
    const auto d = parse_dim3(s);
    if (!d || d->z != 1) return false;
    w = d->x, h = d->y;
    return !canvas_size_error(w, h);
}

// What the options ask for, checked.
struct BenchPlan {
    std::vector<const OpInfo*> ops;
    std::vector<std::pair<int, int>> sizes;
    std::vector<Backend> backends;
    std::vector<Present> presents;
    std::vector<Mapping> mappings;
    int screen_w = 0, screen_h = 0;
    Dim3 block;
};

// Parses each entry of `names` with `parse`; on the first it refuses, prints `refusal(name)`.
template <class T, class Parse, class Refusal>
bool parse_each(const std::vector<std::string>& names, std::vector<T>& out, Parse parse, Refusal refusal) {
    for (const std::string& name : names) {
        const auto value = parse(name);
        if (!value) {
            fmt::print(stderr, "kcanvas bench: {}\n", refusal(name));
            return false;
        }
        out.push_back(*value);
    }
    return true;
}

bool parse_lists(const BenchOptions& o, BenchPlan& plan) {
    auto op = [](const std::string& n) { return find_op(n) ? std::optional(find_op(n)) : std::nullopt; };
    auto size = [](const std::string& s) {
        int w, h;
        return parse_size(s, w, h) ? std::optional(std::pair{w, h}) : std::nullopt;
    };
    return parse_each(o.ops, plan.ops, op,
                      [](auto& n) { return fmt::format("unknown op '{}': choose from {}", n, op_names()); }) &&
           parse_each(o.sizes, plan.sizes, size,
                      [](auto& s) { return fmt::format("bad size '{}' (WxH, each side 1..{})", s, kMaxCanvasSide); }) &&
           parse_each(o.backends, plan.backends, parse_backend,
                      [](auto& b) { return fmt::format("unknown backend '{}'", b); }) &&
           parse_each(
               o.presents, plan.presents, parse_present,
               [](auto& p) { return fmt::format("unknown present path '{}': choose {}", p, present_choices()); }) &&
           parse_each(o.mappings, plan.mappings, parse_mapping,
                      [](auto& m) { return fmt::format("unknown mapping '{}': choose from {}", m, mapping_names()); });
}

std::optional<BenchPlan> parse_plan(const BenchOptions& o) {
    BenchPlan plan;
    if (!parse_lists(o, plan)) return std::nullopt;
    if (plan.ops.empty())
        for (const OpInfo& op : op_registry()) plan.ops.push_back(&op);
    if (plan.mappings.empty()) plan.mappings.push_back(Mapping::TwoD);
    if (!parse_size(o.screen, plan.screen_w, plan.screen_h)) {
        fmt::print(stderr, "kcanvas bench: bad --screen '{}' (WxH)\n", o.screen);
        return std::nullopt;
    }
    for (int ppt : o.pixels_per_thread)
        if (ppt != 1 && ppt != 4) {
            fmt::print(stderr, "kcanvas bench: --pixels-per-thread {} is not 1 or 4\n", ppt);
            return std::nullopt;
        }
    // A list given empty ("--sizes ''") leaves nothing to time: say so rather than print an empty table.
    for (const auto& [flag, count] :
         {std::pair{"--sizes", o.sizes.size()}, std::pair{"--backend", o.backends.size()},
          std::pair{"--present", o.presents.size()}, std::pair{"--pixels-per-thread", o.pixels_per_thread.size()}})
        if (count == 0) {
            fmt::print(stderr, "kcanvas bench: {} is empty: nothing to time\n", flag);
            return std::nullopt;
        }
    const auto block = parse_dim3(o.block);
    if (!block) {
        fmt::print(stderr, "kcanvas bench: bad --block '{}'\n", o.block);
        return std::nullopt;
    }
    plan.block = *block;
    return plan;
}

// What every timing step shares: the painter, the watchdog it beats, the options.
struct BenchContext {
    const BenchOptions& o;
    const BenchPlan& plan;
    FramePainter& painter;
    Watchdog& watchdog;
    bool cuda;
};

// user_kernel times the default starter (the gradient, through the user's code path), compiled
// for the painter's backend: by NVRTC on CUDA, by the system's C++ compiler (sandboxed) on the CPU.
void ready_user_kernel(BenchContext& c) {
    const auto& ops = c.plan.ops;
    if (c.painter.has_user_kernel() || std::none_of(ops.begin(), ops.end(), [](auto* op) { return op->user_code; }))
        return;
    const KernelCompile k = c.painter.compile_user_kernel(default_starter().source, "gradient.cu");
    if (!k.ok) fmt::print(stderr, "skipping user_kernel on {}: {}\n", backend_name(c.painter.backend()), k.log);
}

// --sweep-blocks: the kernel median per block for each op, size and mapping, fastest first, with
// random input images as the timed rows have.
void sweep(BenchContext& c) {
    for (auto [w, h] : c.plan.sizes) {
        SourceImages sources;
        sources.fit(w, h);
        sources.set(0, noise_image(w, h, 1), "noise A");
        sources.set(1, noise_image(w, h, 2), "noise B");
        for (const OpInfo* op : c.plan.ops)
            for (Mapping mapping : c.plan.mappings) {
                // Custom ops launch their own grids and your kernel indexes for itself: one mapping.
                if ((op->custom || op->user_code) && mapping != c.plan.mappings.front()) continue;
                if (op->user_code) ready_user_kernel(c);
                if (op->user_code && !c.painter.has_user_kernel()) continue;
                Canvas canvas(w, h);
                PaintJob job;
                job.op = op->index;
                job.params.width = w, job.params.height = h;
                job.launch.mapping = mapping;
                const auto results = sweep_blocks(
                    c.painter, canvas, job, c.o.reps, [&] { c.watchdog.beat(); }, &sources);
                fmt::print("\n{} {}x{} {} on {}: kernel median per block (fastest first)\n", op->name, w, h,
                           op->custom || op->user_code ? "own indexing"
                                                       : mapping_name(is_tiled(mapping) ? mapping : Mapping::TwoD),
                           backend_name(c.painter.backend()));
                for (const BlockTiming& r : results)
                    fmt::print("  {:>10}  {:9.2f} us\n", to_string(r.block), r.median_us);
                if (!results.empty()) fmt::print("  best: {}\n", to_string(results.front().block));
            }
    }
}

// Time per call of `body` run `reps` times back to back, one glFinish at the end.
template <class Body>
double streamed_us(BenchContext& c, Body&& body) {
    const auto t0 = Clock::now();
    for (int i = 0; i < c.o.reps; ++i) body(), c.watchdog.beat();
    glFinish();
    return micros_since(t0) / c.o.reps;
}

// Floors of a headless frame on the GL side: a glFinish with nothing queued, a draw alone, a clear.
// Returns the streamed draw alone (us per frame).
double print_gl_floors(BenchContext& c, Canvas& canvas, const Screen& screen, int w, int h, double copy_us,
                       double copy_gbs) {
    std::vector<double> finish_only, draw_only;
    for (int i = 0; i < 50; ++i) {
        auto t0 = Clock::now();
        glFinish();
        finish_only.push_back(micros_since(t0));
        t0 = Clock::now();
        screen.draw(canvas);
        glFinish();
        draw_only.push_back(micros_since(t0));
        c.watchdog.beat();
    }
    fmt::print("{}x{} drawn into {}x{}: glFinish alone {:.1f} us, draw + glFinish {:.1f} us, device copy "
               "{:.1f} us ({:.0f} GB/s)\n",
               w, h, screen.w, screen.h, median(finish_only), median(draw_only), copy_us, copy_gbs);
    const double draws = streamed_us(c, [&] { screen.draw(canvas), glFlush(); });
    fmt::print("  streamed: draw alone {:.1f} us/frame", draws);
    // GL's fill rate on its own: clearing the screen touches every pixel once, no texture.
    const double clears = streamed_us(c, [&] {
        glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
        glViewport(0, 0, screen.w, screen.h);
        glClear(GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glFlush();
    });
    fmt::print(", clear of the screen alone {:.1f} us/frame", clears);
    return draws;
}

#ifdef KC_HAVE_CUDA
// The interop calls alone, and the kernel alone, to see which one costs the frame. Returns the
// streamed CUDA<->GL hand-over (us per frame): what any frame with a CUDA->GL dependency pays.
double print_interop_floors(BenchContext& c, Canvas& canvas, const Screen& screen, const PaintJob& gradient) {
    CudaStream stream = CudaStream::create();
    CudaGlImage image(canvas.texture());
    auto streamed_cuda = [&](auto&& body) { // as streamed_us(), waiting for CUDA at the end too
        const auto t0 = Clock::now();
        for (int i = 0; i < c.o.reps; ++i) body(), c.watchdog.beat();
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
        glFinish();
        return micros_since(t0) / c.o.reps;
    };
    const DeviceLimits limits = c.painter.limits();
    const double maps = streamed_cuda([&] { ScopedCudaImageMap mapped(image, stream.get()); });
    DeviceBuffer<Pixel> pixels(canvas.pixel_count());
    const double kernels = streamed_cuda([&] { cuda_paint(gradient, limits, pixels.data(), stream.get()); });
    const double kernels_and_maps = streamed_cuda([&] {
        cuda_paint(gradient, limits, pixels.data(), stream.get());
        ScopedCudaImageMap mapped(image, stream.get());
    });
    KC_CUDA_CHECK_THROW(cudaGraphicsResourceSetMapFlags(image.resource(), cudaGraphicsMapFlagsWriteDiscard));
    const double maps_discard = streamed_cuda([&] { ScopedCudaImageMap mapped(image, stream.get()); });
    CudaGlBuffer buffer(canvas.pixel_buffer());
    const double buffer_maps = streamed_cuda([&] { ScopedCudaMap mapped(buffer, stream.get()); });
    // The hand-over without interop: a one-pixel fill in CUDA, the CPU waits for it, a 1x1 clear in
    // GL, the CPU waits for that. What this costs is the GPU switching between CUDA's and GL's
    // contexts, which every frame with a CUDA->GL dependency pays.
    DeviceBuffer<Pixel> one(1);
    auto fill_and_wait = [&] {
        cuda_fill(one.data(), 1, Pixel{}, stream.get());
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
    };
    const double handovers = streamed_cuda([&] {
        fill_and_wait();
        glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
        glEnable(GL_SCISSOR_TEST); // glClear ignores the viewport, not the scissor
        glScissor(0, 0, 1, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glFinish();
    });
    const double cuda_round_trips = streamed_cuda(fill_and_wait);
    fmt::print(", CUDA<->GL hand-over without interop (1-pixel fill, wait, 1x1 clear, wait) {:.1f} us/frame "
               "(the fill and its wait alone {:.1f})",
               handovers, cuda_round_trips);
    fmt::print(", texture map+unmap alone {:.1f} us/frame (write-discard flag {:.1f}), pixel buffer "
               "map+unmap alone {:.1f} us/frame, gradient kernel alone {:.1f} us/frame, both {:.1f} us/frame",
               maps, maps_discard, buffer_maps, kernels, kernels_and_maps);
    return handovers;
}
#endif

// Streamed floors, to split a frame's cost: draws alone, and paints (cuda-interop) alone. Returns
// the floor a frame is compared to: hand-over + draw, streamed (0 without cuda-interop).
double print_floors(BenchContext& c, Canvas& canvas, const Screen& screen, int w, int h, double copy_us,
                    double copy_gbs) {
    const double draws = print_gl_floors(c, canvas, screen, w, h, copy_us, copy_gbs);
    double floor_us = 0;
    if (c.painter.unavailable_reason(Backend::CudaInterop).empty()) {
        c.painter.set_backend(Backend::CudaInterop);
        PaintJob gradient;
        gradient.params.width = w, gradient.params.height = h;
        gradient.launch.pixels_per_thread = 4;
        for (Present present : kAllPresents) {
            c.painter.set_present(present);
            const double paints = streamed_us(c, [&] {
                c.painter.paint(gradient, canvas);
                c.painter.collect_timings();
            });
            fmt::print(", gradient paint alone ({}) {:.1f} us/frame", present_name(present), paints);
        }
        c.painter.times().clear();
#ifdef KC_HAVE_CUDA
        floor_us = print_interop_floors(c, canvas, screen, gradient) + draws;
#else
        (void)draws;
#endif
    }
    fmt::print("\n");
    if (floor_us > 0) fmt::print("  floor (hand-over + draw alone, streamed) {:.1f} us/frame\n", floor_us);
    return floor_us;
}

// Whether a configuration gives no row: 4 pixels per thread is for per-pixel ops with the 2d mapping
// where the kernel writes GL memory; custom ops launch their own grids and your kernel indexes for
// itself (one row, whatever the mapping) once it compiled for the backend (ready_user_kernel).
bool skipped(const BenchContext& c, const OpInfo& op, Backend backend, Mapping mapping, int ppt) {
    const bool user_skipped = op.user_code && (!c.painter.has_user_kernel() || ppt != 1);
    const bool own_indexing = op.custom || op.user_code;
    return user_skipped || (own_indexing && mapping != c.plan.mappings.front()) ||
           (ppt != 1 && (op.custom || backend != Backend::CudaInterop || mapping != Mapping::TwoD));
}

// The frames of one job: each frame to the last pixel on screen (glFinish), then back to back.
struct FrameTimes {
    double frame_us, streamed_us, draw_us;
};
std::optional<FrameTimes> time_frames(BenchContext& c, const PaintJob& job, Canvas& canvas, const Screen& screen,
                                      const SourceImages& sources) {
    std::vector<double> frames;
    TimingStats draw_times(c.o.reps);
    GlTimerRing draw_timer;
    for (int i = 0; i < c.o.warmup + c.o.reps; ++i) {
        if (i == c.o.warmup) c.painter.times().clear(), draw_times.clear();
        const auto t0 = Clock::now();
        if (auto e = c.painter.paint(job, canvas, &sources, false)) {
            fmt::print(stderr, "\nkcanvas bench: {}\n", *e);
            return std::nullopt;
        }
        glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
        const bool timed = draw_timer.begin();
        canvas.draw({0, 0, screen.w, screen.h});
        if (timed) draw_timer.end();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glFinish(); // the whole frame, to the last pixel on screen
        c.watchdog.beat();
        if (i >= c.o.warmup) frames.push_back(micros_since(t0));
        c.painter.collect_timings();
        draw_timer.collect([&](double us) { draw_times.add(us); });
    }
    c.painter.collect_timings(true);
    // Throughput: frames back to back, one finish at the end (as a window with vsync off runs).
    const double streamed = streamed_us(c, [&] {
        c.painter.paint(job, canvas, &sources, false);
        screen.draw(canvas);
        glFlush();
        c.painter.collect_timings();
    });
    c.painter.collect_timings(true);
    return FrameTimes{median(frames), streamed, draw_times.median()};
}

// One configuration, at one size, on the painter's backend and present path.
struct RowJob {
    const OpInfo* op;
    Mapping mapping;
    int ppt, variant;
};
std::optional<Row> time_row(BenchContext& c, const RowJob& r, Canvas& canvas, const Screen& screen,
                            const SourceImages& sources, double copy_gbs) {
    const int w = canvas.width(), h = canvas.height();
    PaintJob job;
    job.op = r.op->index;
    job.params.width = w, job.params.height = h;
    job.params.variant = r.variant;
    job.launch.block = c.plan.block;
    job.launch.pixels_per_thread = r.ppt;
    job.launch.mapping = r.mapping;
    const auto frames = time_frames(c, job, canvas, screen, sources);
    if (!frames) return std::nullopt;
    const StageTimes& t = c.painter.times();
    const double kernel_us = t.kernel.median();
    const double gbs = roofline_bytes(*r.op, w, h) / (kernel_us * 1e3);
    const Backend backend = c.painter.backend();
    const bool own = r.op->custom || r.op->user_code;
    return Row{std::string(r.op->name),
               fmt::format("{}x{}", w, h),
               std::string(backend_name(backend)),
               backend == Backend::CudaInterop ? std::string(present_name(c.painter.present())) : "upload",
               own ? "own" : to_string(c.plan.block),
               own ? "-" : std::string(mapping_name(r.mapping)),
               r.op->variants > 1 ? std::string(r.op->variant_names[r.variant]) : "-",
               r.ppt,
               frames->frame_us,
               frames->streamed_us,
               frames->draw_us,
               kernel_us,
               gbs,
               copy_gbs,
               percent_of_roofline(*r.op, w, h, kernel_us, copy_gbs),
               t.map.median(),
               t.unmap.median(),
               t.copy.median(),
               t.upload.median(),
               r.op->flops(job.params) / (kernel_us * 1e3),
               backend == Backend::CudaInterop ? std::string(route_name(c.painter.route())) : "host-upload",
               0.0}; // floor_us: time_size sets it
}

// Each (backend, present) pair once; present paths matter only for cuda-interop.
std::vector<std::pair<Backend, Present>> present_paths(const BenchContext& c) {
    std::vector<std::pair<Backend, Present>> paths;
    for (Backend b : c.plan.backends) {
        if (!c.painter.unavailable_reason(b).empty()) {
            fmt::print(stderr, "skipping {}: {}\n", backend_name(b), c.painter.unavailable_reason(b));
            continue;
        }
        if (b == Backend::CudaInterop)
            for (Present p : c.plan.presents) paths.emplace_back(b, p);
        else
            paths.emplace_back(b, Present::PixelBuffer);
    }
    return paths;
}

// What is being timed, on one line that the next overwrites; only on a terminal, so that logs
// and pipes get the table alone.
void progress(const std::string& what) {
    static const bool terminal = ::isatty(2) == 1;
    if (terminal) fmt::print(stderr, "\r{:<100}\r{}", "", what);
}

// Every row of one size: floors first, then each path x op x mapping x pixels per thread x variant.
bool time_size(BenchContext& c, int w, int h, const std::vector<std::pair<Backend, Present>>& paths,
               std::vector<Row>& rows) {
    Canvas canvas(w, h);
    const Screen screen(c.plan.screen_w, c.plan.screen_h); // the window the canvas is drawn into
    SourceImages sources;
    sources.fit(w, h);
    sources.set(0, noise_image(w, h, 1), "noise A");
    sources.set(1, noise_image(w, h, 2), "noise B");
    const std::size_t bytes = std::size_t(w) * h * sizeof(Pixel);
    const double copy_us = c.cuda ? copy_median_us(bytes, c.o.reps) : 0.0;
    const double copy_gbs = kc::copy_gbs(double(bytes), copy_us);
    const double floor_us = print_floors(c, canvas, screen, w, h, copy_us, copy_gbs);
    for (auto [backend, present] : paths) {
        c.painter.set_backend(backend);
        c.painter.set_present(present);
        ready_user_kernel(c);
        for (const OpInfo* op : c.plan.ops)
            for (Mapping mapping : c.plan.mappings)
                for (int ppt : c.o.pixels_per_thread) {
                    if (skipped(c, *op, backend, mapping, ppt)) continue;
                    // Both kernels of a two-variant op, each on its own (CUDA: the cpu runs one for both).
                    const int variants = backend == Backend::Cpu ? 1 : op->variants;
                    for (int v = 0; v < variants; ++v) {
                        progress(fmt::format("{} {}x{} {} {} variant {}", op->name, w, h, backend_name(backend),
                                             present_name(present), v));
                        auto row = time_row(c, {op, mapping, ppt, v}, canvas, screen, sources, copy_gbs);
                        if (!row) return false;
                        if (backend == Backend::CudaInterop) row->floor_us = floor_us;
                        rows.push_back(std::move(*row));
                    }
                }
    }
    return true;
}

#ifdef KC_HAVE_CUDA
// The matmul kernels alone (no heatmap) at the sizes the lesson compares them at; cuBLAS is the
// peers' row (bench/compare.sh), not linked into kcanvas.
void time_matmul_kernels(BenchContext& c, std::vector<Row>& rows) {
    for (int n : {1024, 2048, 4096}) {
        DeviceBuffer<float> a(1ULL * n * n), b(1ULL * n * n), out(1ULL * n * n);
        matmul_fill_inputs(a.data(), b.data(), n, nullptr);
        const double flops = 2.0 * n * n * n;
        for (int v = 0; v < kMatmulKernels; ++v) {
            // The naive kernel takes tens of ms at N = 4096: a few runs are enough for a median.
            const int reps = std::clamp(c.o.reps / 5, 3, 20);
            const double us = event_median_us(2, reps, [&] {
                matmul_multiply(v, a.data(), b.data(), out.data(), n, nullptr);
                c.watchdog.beat();
            });
            const std::string name(MatmulOp::variant_names[v]);
            fmt::print("matmul N={} {}: {:.1f} us, {:.2f} TFLOP/s\n", n, name, us, flops / us * 1e-6);
            rows.push_back(Row{"matmul_kernel",
                               fmt::format("{}x{}", n, n),
                               "cuda",
                               "-",
                               "own",
                               "-",
                               name,
                               1,
                               0,
                               0,
                               0,
                               us,
                               0,
                               0,
                               0,
                               0,
                               0,
                               0,
                               0,
                               flops / (us * 1e3),
                               "-",
                               0.0});
        }
    }
}
#endif

// The user kernel's modes on each starter: raw pointers, checked views, checked with the writer
// record (pixels view, repeats tinted), checked with a thread view. Each row's kernel median (the
// kernel and the hatching before it, as the panel times them) and its ratio to raw on the same
// starter, size and block, measured in this run. The record's colour pass is not the kernel's time.
struct UserMode {
    const char* name;
    KernelMode mode;
    View view;
    WriterMarks marks;
};
constexpr UserMode kUserModes[] = {{"raw", KernelMode::Raw, View::Pixels, {}},
                                   {"checked", KernelMode::Checked, View::Pixels, {}},
                                   {"checked+record", KernelMode::Checked, View::Pixels, {true, false}},
                                   {"checked+views", KernelMode::Checked, View::Block, {}}};

std::optional<double> user_mode_kernel_us(BenchContext& c, const StarterKernel& s, const UserMode& m, Canvas& canvas,
                                          const SourceImages& sources) {
    const KernelCompile k = c.painter.compile_user_kernel(s.source, std::string(s.name) + ".cu", m.mode);
    if (!k.ok) {
        fmt::print(stderr, "skipping {} ({}): {}\n", s.name, m.name, k.log);
        return std::nullopt;
    }
    PaintJob job;
    job.op = find_op("user_kernel")->index;
    job.params.width = canvas.width(), job.params.height = canvas.height();
    job.launch.block = c.plan.block;
    job.view = m.view;
    job.marks = m.marks;
    for (int i = 0; i < c.o.warmup + c.o.reps; ++i) {
        if (i == c.o.warmup) c.painter.times().clear();
        if (auto e = c.painter.paint(job, canvas, &sources, false)) {
            fmt::print(stderr, "skipping {} ({}): {}\n", s.name, m.name, *e);
            return std::nullopt;
        }
        c.painter.collect_timings();
        c.watchdog.beat();
    }
    c.painter.collect_timings(true);
    return c.painter.times().kernel.median();
}

void time_user_kernel_modes(BenchContext& c, std::vector<Row>& rows) {
    // The rows before may have ended on the CPU backend: these compare NVRTC's modes on the GPU.
    if (!c.painter.set_backend(Backend::CudaInterop) && !c.painter.set_backend(Backend::CudaStaged)) return;
    for (auto [w, h] : c.plan.sizes) {
        Canvas canvas(w, h);
        SourceImages sources;
        sources.fit(w, h);
        sources.set(0, noise_image(w, h, 1), "noise A");
        sources.set(1, noise_image(w, h, 2), "noise B");
        for (const StarterKernel& s : starter_kernels()) {
            double raw_us = 0;
            for (const UserMode& m : kUserModes) {
                progress(fmt::format("user_kernel {} {} {}x{}", s.name, m.name, w, h));
                const auto us = user_mode_kernel_us(c, s, m, canvas, sources);
                if (!us) continue;
                if (m.mode == KernelMode::Raw) raw_us = *us;
                const std::string variant =
                    fmt::format("{} {} ({:.2f}x raw)", s.name, m.name, raw_us > 0 ? *us / raw_us : 0.0);
                fmt::print("user_kernel {}x{} block {}: {}: kernel {:.2f} us\n", w, h, to_string(c.plan.block), variant,
                           *us);
                rows.push_back(Row{"user_kernel",
                                   fmt::format("{}x{}", w, h),
                                   "cuda",
                                   "-",
                                   to_string(c.plan.block),
                                   "own",
                                   variant,
                                   1,
                                   0,
                                   0,
                                   0,
                                   *us,
                                   0,
                                   0,
                                   0,
                                   0,
                                   0,
                                   0,
                                   0,
                                   0,
                                   "-",
                                   0.0});
            }
        }
    }
    c.painter.compile_user_kernel(default_starter().source, "gradient.cu"); // as the other rows ran it
}

// --timeline: the SM timeline's cost. Off: the plain kernel the window runs; "teaching": the kernel
// that can record (step mode's limit set to every block), not recording; on: recording. The
// buffer's zeroing and read-back are outside the kernel's time, as in the window.
struct TimelineMode {
    const char* name;
    bool record;
    bool teaching_kernel;
};
constexpr TimelineMode kTimelineModes[] = {
    {"timeline off", false, false}, {"teaching kernel, no timeline", false, true}, {"timeline on", true, true}};

std::optional<double> timeline_mode_kernel_us(BenchContext& c, PaintJob job, const TimelineMode& m, Canvas& canvas,
                                              const SourceImages& sources) {
    const ResolvedLaunch resolved = resolve_launch(job, c.painter.limits());
    if (m.teaching_kernel) job.max_blocks = resolved.grid.count();
    c.painter.record_timeline(m.record);
    for (int i = 0; i < c.o.warmup + c.o.reps; ++i) {
        if (i == c.o.warmup) c.painter.times().clear();
        if (auto e = c.painter.paint(job, canvas, &sources, false)) {
            fmt::print(stderr, "skipping {} ({}): {}\n", op_registry()[job.op].name, m.name, *e);
            c.painter.record_timeline(false);
            return std::nullopt;
        }
        c.painter.collect_timings();
        c.watchdog.beat();
    }
    c.painter.collect_timings(true);
    c.painter.record_timeline(false);
    return c.painter.times().kernel.median();
}

void time_timeline_overhead(BenchContext& c, const std::vector<std::pair<Backend, Present>>& paths,
                            std::vector<Row>& rows) {
    std::vector<Backend> done;
    for (auto [backend, present] : paths) {
        if (std::find(done.begin(), done.end(), backend) != done.end()) continue;
        done.push_back(backend);
        c.painter.set_backend(backend);
        c.painter.set_present(present == Present::Direct ? Present::PixelBuffer : present);
        for (auto [w, h] : c.plan.sizes) {
            Canvas canvas(w, h);
            SourceImages sources;
            sources.fit(w, h);
            sources.set(0, noise_image(w, h, 1), "noise A");
            sources.set(1, noise_image(w, h, 2), "noise B");
            for (const OpInfo* op : c.plan.ops) {
                if (op->custom || op->user_code) continue; // they record no timeline
                PaintJob job;
                job.op = op->index;
                job.params.width = w, job.params.height = h;
                job.launch.block = c.plan.block;
                double off_us = 0;
                for (const TimelineMode& m : kTimelineModes) {
                    progress(fmt::format("{} {} {}x{}", op->name, m.name, w, h));
                    const auto us = timeline_mode_kernel_us(c, job, m, canvas, sources);
                    if (!us) continue;
                    if (!m.record && !m.teaching_kernel) off_us = *us;
                    const double ratio = off_us > 0 ? *us / off_us : 0.0;
                    const std::string variant = fmt::format("{} ({:.3f}x off)", m.name, ratio);
                    fmt::print("timeline {} {} {}x{} block {}: {}: kernel {:.2f} us\n", backend_name(backend), op->name,
                               w, h, to_string(c.plan.block), variant, *us);
                    rows.push_back(Row{std::string(op->name),
                                       fmt::format("{}x{}", w, h),
                                       std::string(backend_name(backend)),
                                       "-",
                                       to_string(c.plan.block),
                                       "2d",
                                       variant,
                                       1,
                                       0,
                                       0,
                                       0,
                                       *us,
                                       0,
                                       0,
                                       0,
                                       0,
                                       0,
                                       0,
                                       0,
                                       0,
                                       "-",
                                       0.0});
                }
            }
        }
    }
}

void print_rows(const std::vector<Row>& rows) {
    fmt::print("{:<13} {:>10} {:>13} {:>8} {:>11} {:>3} {:>30} {:>10} {:>10} {:>8} {:>10} {:>9} {:>7} {:>8} {:>8} "
               "{:>8} {:>9} {:>9} {:>11} {:>7}\n",
               "op", "size", "backend", "present", "mapping", "ppt", "variant", "frame us", "stream us", "draw us",
               "kernel us", "GB/s", "%copy", "map us", "unmap us", "copy us", "upload us", "GFLOP/s", "route",
               "/floor");
    for (const Row& r : rows)
        fmt::print("{:<13} {:>10} {:>13} {:>8} {:>11} {:>3} {:>30} {:>10.1f} {:>10.1f} {:>8.1f} {:>10.2f} {:>9.1f} "
                   "{:>6.1f}% {:>8.1f} {:>8.1f} {:>8.1f} {:>9.1f} {:>9.1f} {:>11} {:>7.3f}\n",
                   r.op, r.size, r.backend, r.present, r.mapping, r.pixels_per_thread, r.variant, r.frame_us,
                   r.streamed_us, r.draw_us, r.kernel_us, r.gbs, r.pct_of_copy, r.map_us, r.unmap_us, r.copy_us,
                   r.upload_us, r.gflops, r.route, r.over_floor());
}

// Per op and size, each cuda-interop present's streamed frame over the floor measured in the same
// run (hand-over + draw): how close the whole frame comes to what any CUDA->GL frame pays.
void print_floor_ratios(const std::vector<Row>& rows) {
    std::vector<std::string> presents;
    for (const Row& r : rows)
        if (r.floor_us > 0 && std::find(presents.begin(), presents.end(), r.present) == presents.end())
            presents.push_back(r.present);
    if (presents.empty()) return;
    fmt::print("\nstreamed frame / floor (CUDA<->GL hand-over + draw alone, streamed, this run)\n");
    fmt::print("{:<13} {:>10} {:>3} {:>30} {:>9}", "op", "size", "ppt", "variant", "floor us");
    for (const std::string& p : presents) fmt::print(" {:>22}", p + " us (ratio)");
    fmt::print("\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& a = rows[i];
        if (a.floor_us <= 0 || a.present != presents.front()) continue;
        fmt::print("{:<13} {:>10} {:>3} {:>30} {:>9.1f}", a.op, a.size, a.pixels_per_thread, a.variant, a.floor_us);
        for (const std::string& p : presents) {
            const auto same = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
                return r.present == p && r.op == a.op && r.size == a.size && r.mapping == a.mapping &&
                       r.pixels_per_thread == a.pixels_per_thread && r.variant == a.variant;
            });
            if (same == rows.end()) {
                fmt::print(" {:>22}", "-");
                continue;
            }
            // A direct run whose frames took the copy (a custom op) says so.
            const std::string mark = p == "direct" && same->route != "direct" ? " copy" : "";
            fmt::print(" {:>22}", fmt::format("{:.1f} ({:.3f}){}", same->streamed_us, same->over_floor(), mark));
        }
        fmt::print("\n");
    }
}

std::string rows_csv(const std::vector<Row>& rows) {
    std::string csv = "op,size,backend,present,block,mapping,variant,pixels_per_thread,frame_us,streamed_frame_us,"
                      "draw_us,kernel_us,kernel_gbs,copy_gbs,pct_of_copy,map_us,unmap_us,copy_us,upload_us,gflops,"
                      "route,floor_us,streamed_over_floor\n";
    for (const Row& r : rows)
        csv +=
            fmt::format("{},{},{},{},{},{},{},{},{:.2f},{:.2f},{:.2f},{:.3f},{:.1f},{:.1f},{:.1f},{:.2f},{:.2f},{:.2f},"
                        "{:.2f},{:.1f},{},{:.2f},{:.4f}\n",
                        r.op, r.size, r.backend, r.present, r.block, r.mapping, r.variant, r.pixels_per_thread,
                        r.frame_us, r.streamed_us, r.draw_us, r.kernel_us, r.gbs, r.copy_gbs, r.pct_of_copy, r.map_us,
                        r.unmap_us, r.copy_us, r.upload_us, r.gflops, r.route, r.floor_us, r.over_floor());
    return csv;
}

nlohmann::json rows_json(const std::vector<Row>& rows) {
    nlohmann::json list = nlohmann::json::array();
    for (const Row& r : rows)
        list.push_back({{"op", r.op},
                        {"size", r.size},
                        {"backend", r.backend},
                        {"present", r.present},
                        {"block", r.block},
                        {"mapping", r.mapping},
                        {"variant", r.variant},
                        {"pixels_per_thread", r.pixels_per_thread},
                        {"frame_us", r.frame_us},
                        {"streamed_frame_us", r.streamed_us},
                        {"draw_us", r.draw_us},
                        {"kernel_us", r.kernel_us},
                        {"kernel_gbs", r.gbs},
                        {"copy_gbs", r.copy_gbs},
                        {"pct_of_copy", r.pct_of_copy},
                        {"map_us", r.map_us},
                        {"unmap_us", r.unmap_us},
                        {"copy_us", r.copy_us},
                        {"upload_us", r.upload_us},
                        {"gflops", r.gflops},
                        {"route", r.route},
                        {"floor_us", r.floor_us},
                        {"streamed_over_floor", r.over_floor()}});
    return list;
}

// The table on stdout, the CSV and the JSON files; false when a file cannot be written.
bool report(const BenchOptions& o, const std::vector<Row>& rows, const std::string& device, const std::string& gl) {
    print_rows(rows);
    print_floor_ratios(rows);
    nlohmann::json j = {{"device", device}, {"gl", gl}, {"reps", o.reps}, {"warmup", o.warmup}};
    j["rows"] = rows_json(rows);
    for (const auto& [path, text] : {std::pair{&o.csv, rows_csv(rows)}, {&o.json, j.dump(2) + "\n"}})
        if (auto e = write_file_atomically(*path, text)) {
            fmt::print(stderr, "kcanvas bench: {}\n", *e);
            return false;
        }
    fmt::print("wrote {} and {}\n", o.csv, o.json);
    return true;
}

// Everything after the options are checked and a GL context exists: the exit code.
int run_with_context(const BenchOptions& o, const BenchPlan& plan, const EglHeadlessContext& context, int cuda_device) {
    FramePainter painter(std::nullopt, o.gpu);
    const std::string device = painter.device().name;
    // Each measured step beats; a GPU that stops answering ends the run with a message.
    Watchdog watchdog(std::chrono::seconds(o.watchdog_s));
    watchdog.arm(painter.unavailable_reason(Backend::CudaInterop).empty() ||
                 painter.unavailable_reason(Backend::CudaStaged).empty());
    fmt::print("kcanvas bench on {}{} ({})\n", device,
               painter.cuda_device() >= 0 ? fmt::format(", CUDA device {}", painter.cuda_device()) : "",
               context.description());
    BenchContext c{o, plan, painter, watchdog, cuda_device >= 0};
    if (o.sweep_blocks) return sweep(c), 0;
    const auto paths = present_paths(c);
    std::vector<Row> rows;
    for (auto [w, h] : plan.sizes)
        if (!time_size(c, w, h, paths, rows)) return 2;
#ifdef KC_HAVE_CUDA
    const bool matmul =
        std::any_of(plan.ops.begin(), plan.ops.end(), [](const OpInfo* op) { return op->name == "matmul"; });
    if (c.cuda && matmul && !paths.empty()) time_matmul_kernels(c, rows);
#endif
    if (c.cuda && o.user_kernel_modes) time_user_kernel_modes(c, rows);
    if (o.timeline) time_timeline_overhead(c, paths, rows);
    progress("");
    if (rows.empty()) {
        fmt::print(stderr,
                   "kcanvas bench: these options give no rows to time ({}4 pixels per thread runs only on "
                   "cuda-interop with the 2d mapping and a per-pixel op; user_kernel where it compiles)\n",
                   paths.empty() ? "none of the backends asked for is available; " : "");
        return 2;
    }
    return report(o, rows, device, context.description()) ? 0 : 2;
}

} // namespace

int run_bench(const BenchOptions& o) {
    const auto plan = parse_plan(o);
    if (!plan) return 2;
    int cuda_device = -1;
#ifdef KC_HAVE_CUDA
    if (!cuda_unavailable_reason()) cuda_device = o.gpu.value_or(0);
#endif
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(cuda_device);
    } catch (const ContextError& e) {
        fmt::print(stderr, "kcanvas bench: needs headless OpenGL: {}\n", e.what());
        return 1;
    }
    try {
        return run_with_context(o, *plan, *context, cuda_device);
    } catch (const std::exception& e) {
        fmt::print(stderr, "\nkcanvas bench: {}\n", e.what());
        return 1;
    }
}

} // namespace kc
