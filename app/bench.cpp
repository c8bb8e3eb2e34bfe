#include "bench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>

#include "atomic_file.h"
#include "block_sweep.h"
#include "gl_context.h"
#include "gl_timer.h"
#include "registry.h"
#include "source_images.h"
#include "user_kernel.h"
#include "watchdog.h"
#ifdef KC_HAVE_CUDA
#include "cuda_device.h"
#include "cuda_gl_buffer.h"
#include "cuda_paint.h"
#include "cuda_raii.h"
#endif

namespace kc {

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

// Median time of a device-to-device copy of `bytes` (the bandwidth floor every op is compared to).
double copy_median_us(std::size_t bytes, int reps) {
#ifdef KC_HAVE_CUDA
    DeviceBuffer<std::uint8_t> src(bytes), dst(bytes);
    KC_CUDA_CHECK_THROW(cudaMemset(src.data(), 1, bytes));
    CudaEvent start = CudaEvent::create(), stop = CudaEvent::create();
    std::vector<double> times;
    for (int i = 0; i < reps + 10; ++i) {
        KC_CUDA_CHECK_THROW(cudaEventRecord(start.get()));
        KC_CUDA_CHECK_THROW(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));
        KC_CUDA_CHECK_THROW(cudaEventRecord(stop.get()));
        KC_CUDA_CHECK_THROW(cudaEventSynchronize(stop.get()));
        float ms = 0;
        KC_CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        if (i >= 10) times.push_back(ms * 1000.0);
    }
    return median(times);
#else
    (void)bytes, (void)reps;
    return 0.0;
#endif
}

// An offscreen target the size of the canvas: "draw" in a headless frame means drawing here.
struct Screen {
    GlTexture colour = GlTexture::create();
    GlFramebuffer fbo = GlFramebuffer::create();
    Screen(int w, int h) {
        glBindTexture(GL_TEXTURE_2D, colour.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindTexture(GL_TEXTURE_2D, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour.id(), 0);
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

struct Row {
    std::string op, size, backend, present, block, mapping;
    int pixels_per_thread;
    double frame_us, streamed_us, draw_us, kernel_us, gbs, copy_gbs, pct_of_copy, map_us, unmap_us, copy_us, upload_us;
};

bool parse_size(const std::string& s, int& w, int& h) {
    const auto d = parse_dim3(s);
    if (!d || d->z != 1) return false;
    w = d->x, h = d->y;
    return !canvas_size_error(w, h);
}

} // namespace

int run_bench(const BenchOptions& o) {
    std::vector<const OpInfo*> ops;
    for (const std::string& name : o.ops) {
        const OpInfo* op = find_op(name);
        if (!op) {
            fmt::print(stderr, "kcanvas bench: unknown op '{}': choose from {}\n", name, op_names());
            return 2;
        }
        ops.push_back(op);
    }
    if (ops.empty())
        for (const OpInfo& op : op_registry()) ops.push_back(&op);
    std::vector<std::pair<int, int>> sizes;
    for (const std::string& s : o.sizes) {
        int w, h;
        if (!parse_size(s, w, h)) {
            fmt::print(stderr, "kcanvas bench: bad size '{}' (WxH, each side 1..{})\n", s, kMaxCanvasSide);
            return 2;
        }
        sizes.emplace_back(w, h);
    }
    std::vector<Backend> backends;
    for (const std::string& b : o.backends) {
        const auto backend = parse_backend(b);
        if (!backend) {
            fmt::print(stderr, "kcanvas bench: unknown backend '{}'\n", b);
            return 2;
        }
        backends.push_back(*backend);
    }
    std::vector<Present> presents;
    for (const std::string& p : o.presents) {
        const auto present = parse_present(p);
        if (!present) {
            fmt::print(stderr, "kcanvas bench: unknown present path '{}': choose pbo, texture or surface\n", p);
            return 2;
        }
        presents.push_back(*present);
    }
    int screen_w = 0, screen_h = 0;
    if (!parse_size(o.screen, screen_w, screen_h)) {
        fmt::print(stderr, "kcanvas bench: bad --screen '{}' (WxH)\n", o.screen);
        return 2;
    }
    std::vector<Mapping> mappings;
    for (const std::string& m : o.mappings) {
        const auto mapping = parse_mapping(m);
        if (!mapping) {
            fmt::print(stderr, "kcanvas bench: unknown mapping '{}': choose from {}\n", m, mapping_names());
            return 2;
        }
        mappings.push_back(*mapping);
    }
    if (mappings.empty()) mappings.push_back(Mapping::TwoD);
    for (int ppt : o.pixels_per_thread)
        if (ppt != 1 && ppt != 4) {
            fmt::print(stderr, "kcanvas bench: --pixels-per-thread {} is not 1 or 4\n", ppt);
            return 2;
        }
    // A list given empty ("--sizes ''") leaves nothing to time: say so rather than print an empty table.
    for (const auto& [flag, count] :
         {std::pair{"--sizes", o.sizes.size()}, std::pair{"--backend", o.backends.size()},
          std::pair{"--present", o.presents.size()}, std::pair{"--pixels-per-thread", o.pixels_per_thread.size()}})
        if (count == 0) {
            fmt::print(stderr, "kcanvas bench: {} is empty: nothing to time\n", flag);
            return 2;
        }
    const auto block = parse_dim3(o.block);
    if (!block) {
        fmt::print(stderr, "kcanvas bench: bad --block '{}'\n", o.block);
        return 2;
    }

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

    std::vector<Row> rows;
    try {
        FramePainter painter(std::nullopt, o.gpu);
        const std::string device = painter.device().name;
        // Each measured step beats; a GPU that stops answering ends the run with a message.
        Watchdog watchdog(std::chrono::seconds(o.watchdog_s));
        watchdog.arm(painter.unavailable_reason(Backend::CudaInterop).empty() ||
                     painter.unavailable_reason(Backend::CudaStaged).empty());
        fmt::print("kcanvas bench on {}{} ({})\n", device,
                   painter.cuda_device() >= 0 ? fmt::format(", CUDA device {}", painter.cuda_device()) : "",
                   context->description());
        // user_kernel times the default starter (the gradient, through the user's code path).
        bool user_kernel_ready = false;
        if (std::any_of(ops.begin(), ops.end(), [](const OpInfo* op) { return op->user_code; })) {
            const KernelCompile k = painter.compile_user_kernel(default_starter().source, "gradient.cu");
            user_kernel_ready = k.ok;
            if (!k.ok) fmt::print(stderr, "skipping user_kernel: {}\n", k.log);
        }
        if (o.sweep_blocks) {
            for (const OpInfo* op : ops)
                for (auto [w, h] : sizes)
                    for (Mapping mapping : mappings) {
                        // Custom ops launch their own grids and your kernel indexes for itself: one mapping.
                        if ((op->custom || op->user_code) && mapping != mappings.front()) continue;
                        if (op->user_code && !user_kernel_ready) continue;
                        Canvas canvas(w, h);
                        PaintJob job;
                        job.op = op->index;
                        job.params.width = w, job.params.height = h;
                        job.launch.mapping = mapping;
                        const auto results = sweep_blocks(painter, canvas, job, o.reps, [&] { watchdog.beat(); });
                        fmt::print("\n{} {}x{} {} on {}: kernel median per block (fastest first)\n", op->name, w, h,
                                   op->custom || op->user_code
                                       ? "own indexing"
                                       : mapping_name(is_tiled(mapping) ? mapping : Mapping::TwoD),
                                   backend_name(painter.backend()));
                        for (const BlockTiming& r : results)
                            fmt::print("  {:>10}  {:9.2f} us\n", to_string(r.block), r.median_us);
                        if (!results.empty()) fmt::print("  best: {}\n", to_string(results.front().block));
                    }
            return 0;
        }

        // Each (backend, present) pair once; present paths matter only for cuda-interop.
        std::vector<std::pair<Backend, Present>> paths;
        for (Backend b : backends) {
            if (!painter.unavailable_reason(b).empty()) {
                fmt::print(stderr, "skipping {}: {}\n", backend_name(b), painter.unavailable_reason(b));
                continue;
            }
            if (b == Backend::CudaInterop)
                for (Present p : presents) paths.emplace_back(b, p);
            else
                paths.emplace_back(b, Present::PixelBuffer);
        }
        const std::size_t total =
            paths.size() * ops.size() * sizes.size() * o.pixels_per_thread.size() * mappings.size();
        std::size_t done = 0;
        for (auto [w, h] : sizes) {
            Canvas canvas(w, h);
            Screen screen(screen_w, screen_h); // the window the canvas is drawn into
            SourceImages sources;
            sources.fit(w, h);
            sources.set(0, noise_image(w, h, 1), "noise A");
            sources.set(1, noise_image(w, h, 2), "noise B");
            GlTimerRing draw_timer;
            const std::size_t bytes = std::size_t(w) * h * sizeof(Pixel);
            const double copy_us = cuda_device >= 0 ? copy_median_us(bytes, o.reps) : 0.0;
            const double copy_gbs = copy_us > 0 ? 2.0 * bytes / (copy_us * 1e3) : 0.0;
            {
                // Floors of a headless frame: a glFinish with nothing queued, and a draw alone.
                std::vector<double> finish_only, draw_only;
                for (int i = 0; i < 50; ++i) {
                    auto t0 = Clock::now();
                    glFinish();
                    finish_only.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                    t0 = Clock::now();
                    glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                    canvas.draw({0, 0, screen_w, screen_h});
                    glBindFramebuffer(GL_FRAMEBUFFER, 0);
                    glFinish();
                    draw_only.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                    watchdog.beat();
                }
                fmt::print("{}x{} drawn into {}x{}: glFinish alone {:.1f} us, draw + glFinish {:.1f} us, device copy "
                           "{:.1f} us ({:.0f} GB/s)\n",
                           w, h, screen_w, screen_h, median(finish_only), median(draw_only), copy_us, copy_gbs);
                // Streamed floors, to split a frame's cost: draws alone, and paints (cuda-interop) alone.
                auto streamed = [&](auto&& body) {
                    const auto t0 = Clock::now();
                    for (int i = 0; i < o.reps; ++i) body(), watchdog.beat();
                    glFinish();
                    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / o.reps;
                };
                const double draws = streamed([&] {
                    glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                    canvas.draw({0, 0, screen_w, screen_h});
                    glBindFramebuffer(GL_FRAMEBUFFER, 0);
                    glFlush();
                });
                fmt::print("  streamed: draw alone {:.1f} us/frame", draws);
                // GL's fill rate on its own: clearing the screen touches every pixel once, no texture.
                const double clears = streamed([&] {
                    glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                    glViewport(0, 0, screen_w, screen_h);
                    glClear(GL_COLOR_BUFFER_BIT);
                    glBindFramebuffer(GL_FRAMEBUFFER, 0);
                    glFlush();
                });
                fmt::print(", clear of the screen alone {:.1f} us/frame", clears);
                if (painter.unavailable_reason(Backend::CudaInterop).empty()) {
                    painter.set_backend(Backend::CudaInterop);
                    PaintJob gradient;
                    gradient.params.width = w, gradient.params.height = h;
                    gradient.launch.pixels_per_thread = 4;
                    for (Present present : kAllPresents) {
                        painter.set_present(present);
                        const double paints = streamed([&] {
                            painter.paint(gradient, canvas);
                            painter.collect_timings();
                        });
                        fmt::print(", gradient paint alone ({}) {:.1f} us/frame", present_name(present), paints);
                    }
                    painter.times().clear();
#ifdef KC_HAVE_CUDA
                    // The interop calls alone, and the kernel alone, to see which one costs the frame.
                    CudaStream stream = CudaStream::create();
                    CudaGlImage image(canvas.texture());
                    auto streamed_cuda = [&](auto&& body) { // as streamed(), waiting for CUDA at the end too
                        const auto t0 = Clock::now();
                        for (int i = 0; i < o.reps; ++i) body(), watchdog.beat();
                        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
                        glFinish();
                        return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / o.reps;
                    };
                    const double maps = streamed_cuda([&] { ScopedCudaImageMap mapped(image, stream.get()); });
                    DeviceBuffer<Pixel> pixels(canvas.pixel_count());
                    const double kernels =
                        streamed_cuda([&] { cuda_paint(gradient, painter.limits(), pixels.data(), stream.get()); });
                    const double kernels_and_maps = streamed_cuda([&] {
                        cuda_paint(gradient, painter.limits(), pixels.data(), stream.get());
                        ScopedCudaImageMap mapped(image, stream.get());
                    });
                    KC_CUDA_CHECK_THROW(
                        cudaGraphicsResourceSetMapFlags(image.resource(), cudaGraphicsMapFlagsWriteDiscard));
                    const double maps_discard = streamed_cuda([&] { ScopedCudaImageMap mapped(image, stream.get()); });
                    CudaGlBuffer buffer(canvas.pixel_buffer());
                    const double buffer_maps = streamed_cuda([&] { ScopedCudaMap mapped(buffer, stream.get()); });
                    // The hand-over without interop: a one-pixel fill in CUDA, the CPU waits for it, a 1x1
                    // clear in GL, the CPU waits for that. What this costs is the GPU switching between
                    // CUDA's and GL's contexts, which every frame with a CUDA->GL dependency pays.
                    DeviceBuffer<Pixel> one(1);
                    const double handovers = streamed_cuda([&] {
                        cuda_fill(one.data(), 1, Pixel{}, stream.get());
                        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
                        glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                        glEnable(GL_SCISSOR_TEST); // glClear ignores the viewport, not the scissor
                        glScissor(0, 0, 1, 1);
                        glClear(GL_COLOR_BUFFER_BIT);
                        glDisable(GL_SCISSOR_TEST);
                        glBindFramebuffer(GL_FRAMEBUFFER, 0);
                        glFinish();
                    });
                    const double cuda_round_trips = streamed_cuda([&] {
                        cuda_fill(one.data(), 1, Pixel{}, stream.get());
                        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
                    });
                    fmt::print(
                        ", CUDA<->GL hand-over without interop (1-pixel fill, wait, 1x1 clear, wait) {:.1f} us/frame "
                        "(the fill and its wait alone {:.1f})",
                        handovers, cuda_round_trips);
                    fmt::print(
                        ", texture map+unmap alone {:.1f} us/frame (write-discard flag {:.1f}), pixel buffer "
                        "map+unmap alone {:.1f} us/frame, gradient kernel alone {:.1f} us/frame, both {:.1f} us/frame",
                        maps, maps_discard, buffer_maps, kernels, kernels_and_maps);
#endif
                }
                fmt::print("\n");
            }
            for (auto [backend, present] : paths) {
                painter.set_backend(backend);
                painter.set_present(present);
                for (const OpInfo* op : ops)
                    for (Mapping mapping : mappings)
                        for (int ppt : o.pixels_per_thread) {
                            // 4 pixels per thread: per-pixel ops with the 2d mapping only, and only where the
                            // kernel writes GL memory. Custom ops launch their own grids and your kernel indexes
                            // for itself: one row, whatever the mapping. Your kernel: CUDA backends only.
                            const bool user_skipped =
                                op->user_code && (!user_kernel_ready || backend == Backend::Cpu || ppt != 1);
                            const bool own_indexing = op->custom || op->user_code;
                            if (user_skipped || (own_indexing && mapping != mappings.front()) ||
                                (ppt != 1 &&
                                 (op->custom || backend != Backend::CudaInterop || mapping != Mapping::TwoD))) {
                                ++done;
                                continue;
                            }
                            fmt::print(stderr, "\r[{:<30}] {}/{} {} {}x{} {} {}        ",
                                       std::string(30 * done / total, '#'), done, total, op->name, w, h,
                                       backend_name(backend), present_name(present));
                            PaintJob job;
                            job.op = op->index;
                            job.params.width = w, job.params.height = h;
                            job.launch.block = *block;
                            job.launch.pixels_per_thread = ppt;
                            job.launch.mapping = mapping;
                            std::vector<double> frames;
                            TimingStats draw_times(o.reps);
                            for (int i = 0; i < o.warmup + o.reps; ++i) {
                                if (i == o.warmup) painter.times().clear(), draw_times.clear();
                                const auto t0 = Clock::now();
                                if (auto e = painter.paint(job, canvas, &sources, false)) {
                                    fmt::print(stderr, "\nkcanvas bench: {}\n", *e);
                                    return 2;
                                }
                                glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                                const bool timed = draw_timer.begin();
                                canvas.draw({0, 0, screen_w, screen_h});
                                if (timed) draw_timer.end();
                                glBindFramebuffer(GL_FRAMEBUFFER, 0);
                                glFinish(); // the whole frame, to the last pixel on screen
                                watchdog.beat();
                                if (i >= o.warmup)
                                    frames.push_back(
                                        std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                                painter.collect_timings();
                                draw_timer.collect([&](double us) { draw_times.add(us); });
                            }
                            painter.collect_timings(true);
                            // Throughput: frames back to back, one finish at the end (as a window with vsync off runs).
                            const auto t_stream = Clock::now();
                            for (int i = 0; i < o.reps; ++i) {
                                painter.paint(job, canvas, &sources, false);
                                glBindFramebuffer(GL_FRAMEBUFFER, screen.fbo.id());
                                canvas.draw({0, 0, screen_w, screen_h});
                                glBindFramebuffer(GL_FRAMEBUFFER, 0);
                                glFlush();
                                painter.collect_timings();
                                watchdog.beat();
                            }
                            glFinish();
                            const double streamed_us =
                                std::chrono::duration<double, std::micro>(Clock::now() - t_stream).count() / o.reps;
                            painter.collect_timings(true);
                            const StageTimes& t = painter.times();
                            const double op_bytes =
                                double(op->bytes_read_per_pixel + op->bytes_written_per_pixel) * w * h;
                            const double gbs = op_bytes / (t.kernel.median() * 1e3);
                            rows.push_back(
                                {std::string(op->name), fmt::format("{}x{}", w, h), std::string(backend_name(backend)),
                                 backend == Backend::CudaInterop ? std::string(present_name(present)) : "upload",
                                 to_string(*block),
                                 op->custom || op->user_code ? "-" : std::string(mapping_name(mapping)), ppt,
                                 median(frames), streamed_us, draw_times.median(), t.kernel.median(), gbs, copy_gbs,
                                 copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0, t.map.median(), t.unmap.median(),
                                 t.copy.median(), t.upload.median()});
                            ++done;
                        }
            }
        }
        fmt::print(stderr, "\r{:<100}\r", "");
        if (rows.empty()) {
            fmt::print(stderr,
                       "kcanvas bench: these options give no rows to time ({}4 pixels per thread runs only on "
                       "cuda-interop with the 2d mapping and a per-pixel op; user_kernel only on CUDA)\n",
                       paths.empty() ? "none of the backends asked for is available; " : "");
            return 2;
        }
        fmt::print(
            "{:<13} {:>10} {:>13} {:>8} {:>11} {:>3} {:>10} {:>10} {:>8} {:>10} {:>9} {:>7} {:>8} {:>8} {:>8} {:>9}\n",
            "op", "size", "backend", "present", "mapping", "ppt", "frame us", "stream us", "draw us", "kernel us",
            "GB/s", "%copy", "map us", "unmap us", "copy us", "upload us");
        for (const Row& r : rows)
            fmt::print("{:<13} {:>10} {:>13} {:>8} {:>11} {:>3} {:>10.1f} {:>10.1f} {:>8.1f} {:>10.2f} {:>9.1f} "
                       "{:>6.1f}% {:>8.1f} {:>8.1f} {:>8.1f} {:>9.1f}\n",
                       r.op, r.size, r.backend, r.present, r.mapping, r.pixels_per_thread, r.frame_us, r.streamed_us,
                       r.draw_us, r.kernel_us, r.gbs, r.pct_of_copy, r.map_us, r.unmap_us, r.copy_us, r.upload_us);
        std::string csv = "op,size,backend,present,block,mapping,pixels_per_thread,frame_us,streamed_frame_us,draw_us,"
                          "kernel_us,kernel_gbs,copy_gbs,pct_of_copy,map_us,unmap_us,copy_us,"
                          "upload_us\n";
        nlohmann::json j = {{"device", device}, {"gl", context->description()}, {"reps", o.reps}, {"warmup", o.warmup}};
        for (const Row& r : rows) {
            csv += fmt::format(
                "{},{},{},{},{},{},{},{:.2f},{:.2f},{:.2f},{:.3f},{:.1f},{:.1f},{:.1f},{:.2f},{:.2f},{:.2f},{:.2f}\n",
                r.op, r.size, r.backend, r.present, r.block, r.mapping, r.pixels_per_thread, r.frame_us, r.streamed_us,
                r.draw_us, r.kernel_us, r.gbs, r.copy_gbs, r.pct_of_copy, r.map_us, r.unmap_us, r.copy_us, r.upload_us);
            j["rows"].push_back({{"op", r.op},
                                 {"size", r.size},
                                 {"backend", r.backend},
                                 {"present", r.present},
                                 {"block", r.block},
                                 {"mapping", r.mapping},
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
                                 {"upload_us", r.upload_us}});
        }
        for (const auto& [path, text] : {std::pair{&o.csv, csv}, {&o.json, j.dump(2) + "\n"}})
            if (auto e = write_file_atomically(*path, text)) {
                fmt::print(stderr, "kcanvas bench: {}\n", *e);
                return 2;
            }
        fmt::print("wrote {} and {}\n", o.csv, o.json);
    } catch (const std::exception& e) {
        fmt::print(stderr, "\nkcanvas bench: {}\n", e.what());
        return 1;
    }
    return 0;
}

} // namespace kc
