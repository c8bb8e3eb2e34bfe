// The CUDA backends through the real headless EGL + pixel-buffer interop path, pixel for pixel
// against the independent references. Skipped, with the reason, where there is no CUDA GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "gpu/cuda_device.h"
#include "gpu/ops/roofline.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/source_images.h"
#include "tests/support/gpu_gl_test.h"
#include "tests/support/op_expectations.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

using test::kPoison;

using GpuInterop = test::GpuGlTest;

// Paints through `backend`, with the pixel buffer poisoned first; returns the buffer and the texture.
std::pair<std::vector<Pixel>, std::vector<Pixel>> paint(FramePainter& painter, Canvas& canvas, const PaintJob& job) {
    canvas.write_pixel_buffer(std::vector<Pixel>(canvas.pixel_count(), kPoison));
    const auto error = painter.paint(job, canvas);
    EXPECT_EQ(error, std::nullopt) << error.value_or("");
    return {canvas.read_pixel_buffer(), canvas.read_texture()};
}

TEST_F(GpuInterop, EveryOpMatchesTheReferenceThroughThePixelBuffer) {
    FramePainter painter(Backend::CudaInterop);
    painter.set_present(Present::PixelBuffer);
    for (const PaintJob& job : ref::random_jobs(99, 120, 300)) {
        Canvas canvas(job.params.width, job.params.height);
        const auto [buffer, texture] = paint(painter, canvas, job);
        ASSERT_TRUE(ref::matches_reference(job, buffer));
        ASSERT_TRUE(ref::matches_reference(job, texture)); // what the window shows
    }
}

TEST_F(GpuInterop, EveryOpMatchesTheReferenceThroughTheRegisteredTexture) {
    // Direct: the op's kernel writes the texture itself where it can (direct_write.h), the copy otherwise.
    for (Present present : {Present::Texture, Present::Surface, Present::Direct}) {
        SCOPED_TRACE(std::string(present_name(present)));
        FramePainter painter(Backend::CudaInterop);
        painter.set_present(present);
        for (const PaintJob& job : ref::random_jobs(98, 60, 300)) {
            Canvas canvas(job.params.width, job.params.height);
            const auto [buffer, texture] = paint(painter, canvas, job);
            ASSERT_TRUE(ref::matches_reference(job, texture));
            for (const Pixel& p : buffer) ASSERT_EQ(p, kPoison); // these paths never touch the pixel buffer
        }
        // Resizing re-registers the texture.
        Canvas canvas(64, 64);
        for (auto [w, h] : {std::pair{640, 480}, {33, 17}, {3840, 2160}}) {
            canvas.resize(w, h);
            PaintJob job;
            job.params.width = w, job.params.height = h;
            ASSERT_TRUE(ref::matches_reference(job, paint(painter, canvas, job).second));
        }
    }
}

TEST_F(GpuInterop, StagedBackendMatchesTheReference) {
    FramePainter painter(Backend::CudaStaged);
    for (const PaintJob& job : ref::random_jobs(5, 40, 300)) {
        Canvas canvas(job.params.width, job.params.height);
        canvas.write_pixel_buffer(std::vector<Pixel>(canvas.pixel_count(), kPoison));
        ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
        ASSERT_TRUE(ref::matches_reference(job, canvas.read_texture()));
    }
}

TEST_F(GpuInterop, LargeCanvasMatchesTheReference) {
    FramePainter painter(Backend::CudaInterop);
    painter.set_present(Present::PixelBuffer);
    for (int op : ref::generator_ops()) {
        PaintJob job;
        job.op = op;
        job.params.width = 3840;
        job.params.height = 2160;
        job.params.weight = 0.37f;
        Canvas canvas(3840, 2160);
        ASSERT_TRUE(ref::matches_reference(job, paint(painter, canvas, job).first));
    }
}

TEST_F(GpuInterop, RefusedLaunchLeavesBufferAndTextureUntouched) {
    FramePainter painter(Backend::CudaInterop);
    painter.set_present(Present::PixelBuffer);
    Canvas canvas(800, 800);
    PaintJob good;
    ASSERT_EQ(painter.paint(good, canvas), std::nullopt);
    const auto shown = canvas.read_texture();
    canvas.write_pixel_buffer(std::vector<Pixel>(canvas.pixel_count(), kPoison));
    for (Dim3 bad : {Dim3{50, 30, 1}, Dim3{2048, 1, 1}, Dim3{0, 1, 1}, Dim3{1, 1, 65}}) {
        PaintJob job = good;
        job.launch.block = bad;
        const auto error = painter.paint(job, canvas);
        ASSERT_TRUE(error.has_value()) << to_string(bad);
    }
    for (const Pixel& p : canvas.read_pixel_buffer()) ASSERT_EQ(p, kPoison);
    EXPECT_EQ(canvas.read_texture(), shown);
}

TEST_F(GpuInterop, ResizeReRegistersTheBuffer) {
    FramePainter painter(Backend::CudaInterop);
    painter.set_present(Present::PixelBuffer);
    Canvas canvas(800, 800);
    PaintJob job;
    ASSERT_TRUE(ref::matches_reference(job, paint(painter, canvas, job).first));
    for (auto [w, h] : {std::pair{640, 480}, {1920, 1080}, {33, 17}, {800, 800}}) {
        canvas.resize(w, h);
        job.params.width = w;
        job.params.height = h;
        ASSERT_TRUE(ref::matches_reference(job, paint(painter, canvas, job).first)) << w << "x" << h;
    }
}

// New input images of another size, in a new SourceImages object, must be uploaded again (a stale
// upload once read past the end of the old buffer).
TEST_F(GpuInterop, InputImagesFollowTheCanvasAcrossSizesAndObjects) {
    FramePainter painter(Backend::CudaInterop);
    std::mt19937 rng(11);
    for (auto [w, h] : {std::pair{320, 200}, {1920, 1080}, {64, 48}}) {
        Canvas canvas(w, h);
        SourceImages sources;
        sources.fit(w, h);
        Image a{w, h, std::vector<Pixel>(std::size_t(w) * h)};
        for (Pixel& p : a.pixels) p = Pixel{std::uint8_t(rng()), std::uint8_t(rng()), std::uint8_t(rng()), 255};
        sources.set(0, a, "random");
        PaintJob job;
        job.op = find_op("invert")->index;
        job.params.width = w, job.params.height = h;
        job.launch.pixels_per_thread = 4;
        canvas.write_pixel_buffer(std::vector<Pixel>(canvas.pixel_count(), kPoison));
        ASSERT_EQ(painter.paint(job, canvas, &sources), std::nullopt);
        const auto out = canvas.read_texture();
        for (std::size_t i = 0; i < out.size(); ++i) {
            const Pixel in = a.pixels[i];
            ASSERT_TRUE(ref::same_rgb(out[i], {255 - in.r, 255 - in.g, 255 - in.b})) << i << " at " << w << "x" << h;
        }
    }
}

// The CUDA backend measures a copy's bandwidth when it starts, and every variant's kernel time then
// has a roofline line (the panel's text); the cpu backend states none.
TEST_F(GpuInterop, EveryVariantStatesItsRooflineOnCuda) {
    FramePainter painter(Backend::CudaInterop);
    EXPECT_GT(painter.copy_gbs(), 50.0) << "a device-to-device copy of any CUDA GPU";
    EXPECT_LT(painter.copy_gbs(), 50000.0);
    Canvas canvas(1024, 768);
    for (const char* name : {"box_blur", "sobel", "histogram"}) {
        const OpInfo& op = *find_op(name);
        PaintJob job;
        job.op = op.index;
        job.params.width = 1024, job.params.height = 768, job.params.variant = 1;
        painter.times().clear();
        for (int i = 0; i < 10; ++i) ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
        glFinish();
        painter.collect_timings(true);
        ASSERT_TRUE(painter.ran_both_variants());
        for (int v = 0; v < op.variants; ++v) {
            const std::string line =
                roofline_text("v", op, 1024, 768, painter.times().variant[v].mean(), painter.copy_gbs());
            EXPECT_NE(line.find("% of roofline (copy of the same bytes: "), std::string::npos)
                << name << " variant " << v << ": '" << line << "'";
        }
    }
    painter.set_backend(Backend::Cpu);
    EXPECT_EQ(painter.copy_gbs(), 0.0);
}

TEST_F(GpuInterop, TimingsArriveForTheFramesPainted) {
    FramePainter painter(Backend::CudaInterop);
    Canvas canvas(800, 800);
    PaintJob job;
    for (int i = 0; i < 20; ++i) {
        ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
        painter.collect_timings();
    }
    glFinish();
    painter.collect_timings(true);
    EXPECT_GE(painter.times().kernel.count(), 8u);
    EXPECT_GT(painter.times().kernel.min(), 0.0);
    EXPECT_EQ(painter.times().map.count(), 20u);
}

// A frame's collect_timings returns at once while a long kernel is still running: the waiting
// collect after it has to wait for most of the kernel, so the quick one cannot have waited.
TEST_F(GpuInterop, TimingsArriveWithoutStalling) {
    using Clock = std::chrono::steady_clock;
    const auto ms_since = [](Clock::time_point t0) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    FramePainter painter(Backend::CudaInterop);
    PaintJob job; // every pixel inside the Mandelbrot set iterates to max_iter, in double
    job.op = find_op("mandelbrot")->index;
    job.params.width = job.params.height = 4096;
    job.params.max_iter = 100000;
    job.params.use_double = true;
    job.params.center_x = -0.2, job.params.center_y = 0.0, job.params.scale = 1e-6;
    Canvas canvas(job.params.width, job.params.height);
    ASSERT_EQ(painter.paint(job, canvas), std::nullopt); // warm-up: module load, registrations
    glFinish();
    painter.collect_timings(true);
    painter.times().clear();

    ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
    const auto t_collect = Clock::now();
    painter.collect_timings();
    const double collect_ms = ms_since(t_collect);
    const auto t_wait = Clock::now();
    glFinish();
    painter.collect_timings(true);
    const double wait_ms = ms_since(t_wait);
    ASSERT_EQ(painter.times().kernel.count(), 1u);
    const double kernel_ms = painter.times().kernel.last() / 1000.0;
    ASSERT_GE(kernel_ms, 50.0) << "the kernel must run long enough to be in flight";
    EXPECT_LT(collect_ms, 5.0) << "collect_timings waited for the kernel (" << kernel_ms << " ms)";
    EXPECT_GT(wait_ms, kernel_ms / 4) << "nothing was in flight when collect_timings returned: paint waited for the "
                                      << kernel_ms << " ms kernel";
}

} // namespace
} // namespace kc
