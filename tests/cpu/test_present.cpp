// The painter's seams that need no GPU: the launch resolved once per frame (gpu/paint_job.h), the
// canvas releasing what is bound to its GL objects before deleting them (the order of NVIDIA's
// interop samples: unregister, then delete), and the cpu backend's frames on a worker thread
// (render/cpu_paint_worker.h): the window keeps the last finished picture while a slow one paints.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "gpu/cpu_emulator.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

PaintJob job_of(const char* op, int w, int h) {
    PaintJob job;
    job.op = find_op(op)->index;
    job.params.width = w, job.params.height = h;
    return job;
}

TEST(ResolvedLaunch, APerPixelOpRunsThePanelsLaunchWithItsGridAndCoverage) {
    PaintJob job = job_of("gradient", 100, 50);
    job.launch = LaunchConfig{.block = {16, 8, 1}, .grid = {3, 4, 1}, .auto_grid = false};
    const ResolvedLaunch r = resolve_launch(job, universal_limits());
    ASSERT_FALSE(r.refusal) << *r.refusal;
    EXPECT_FALSE(r.own);
    EXPECT_EQ(r.launch, job.launch);
    EXPECT_EQ(r.grid, (Dim3{3, 4, 1}));
    // 3x4 blocks of 16x8 reach 48x32 of the 100x50 pixels: the rest is hatched first.
    EXPECT_EQ(r.coverage.threads, 16 * 8 * 3 * 4);
    EXPECT_EQ(r.coverage.covered_pixels, 48 * 32);
    EXPECT_EQ(r.coverage.pixels, 100 * 50);
    EXPECT_TRUE(r.clear_first);
    job.launch.auto_grid = true;
    const ResolvedLaunch covered = resolve_launch(job, universal_limits());
    EXPECT_EQ(covered.grid, (Dim3{7, 7, 1}));
    EXPECT_TRUE(covered.coverage.covers_all());
    EXPECT_FALSE(covered.clear_first);
    job.max_blocks = 5; // step mode: blocks past the fifth paint nothing
    EXPECT_TRUE(resolve_launch(job, universal_limits()).clear_first);
}

TEST(ResolvedLaunch, ChecksTheUniversalLimitsFirstThenTheDevicesOnce) {
    PaintJob job = job_of("gradient", 64, 64);
    DeviceLimits small = universal_limits();
    small.max_threads_per_block = 512;
    job.launch.block = {32, 32, 1}; // 1024 threads: legal everywhere but on the small device
    EXPECT_FALSE(resolve_launch(job, universal_limits()).refusal);
    const ResolvedLaunch on_small = resolve_launch(job, small);
    ASSERT_TRUE(on_small.refusal);
    EXPECT_EQ(on_small.refusal, on_small.launch_refusal);
    EXPECT_NE(on_small.refusal->find("512"), std::string::npos) << *on_small.refusal;
    EXPECT_EQ(on_small.coverage.threads, 0); // no counts for a launch that never runs
    job.launch.block = {64, 32, 1};          // 2048: the message every GPU gives, with or without one here
    EXPECT_EQ(resolve_launch(job, small).refusal, launch_error(job.launch, 64, 64, universal_limits()));
}

TEST(ResolvedLaunch, AParameterRefusalKeepsTheLaunchToShowBesideIt) {
    PaintJob job = job_of("box_blur", 64, 64);
    job.params.radius = -1;
    const ResolvedLaunch r = resolve_launch(job, universal_limits());
    ASSERT_TRUE(r.refusal);
    EXPECT_NE(r.refusal->find("radius"), std::string::npos) << *r.refusal;
    EXPECT_FALSE(r.launch_refusal);
    EXPECT_EQ(r.launch.block, (Dim3{16, 16, 1}));
    EXPECT_EQ(r.grid, (Dim3{4, 4, 1}));
    PaintJob four = job_of("gradient", 64, 64);
    four.launch.pixels_per_thread = 4;
    four.view = View::Block;
    const ResolvedLaunch v = resolve_launch(four, universal_limits());
    ASSERT_TRUE(v.refusal);
    EXPECT_NE(v.refusal->find("pixels view"), std::string::npos) << *v.refusal;
    EXPECT_FALSE(v.launch_refusal);
    EXPECT_TRUE(v.coverage.covers_all());
}

TEST(ResolvedLaunch, CustomOpsRunTheirOwnShapeWhateverThePanelSays) {
    PaintJob job = job_of("histogram", 100, 50);
    job.launch.block = {2048, 1, 1}; // the panel's, illegal, and not what runs
    const ResolvedLaunch r = resolve_launch(job, universal_limits());
    ASSERT_FALSE(r.refusal) << *r.refusal;
    EXPECT_TRUE(r.own);
    EXPECT_EQ(r.launch.block, (Dim3{256, 1, 1}));
    EXPECT_EQ(r.grid, (Dim3{20, 1, 1}));
    EXPECT_EQ(r.launch.mapping, Mapping::GridStride);
    EXPECT_TRUE(r.coverage.covers_all());
    EXPECT_FALSE(r.clear_first);
}

// The report prints the launch that ran: the histogram's own 256x1 blocks, not --block's.
TEST(ResolvedLaunch, TheHeadlessReportNamesTheLaunchThatRan) {
    const auto json = test::run("--headless --backend cpu --op histogram --block 32x8 --frames 1 --size 100x50 --json");
    ASSERT_EQ(json.exit_code, 0) << json.output;
    EXPECT_NE(json.output.find("\"block\": \"256x1x1\""), std::string::npos) << json.output;
    EXPECT_NE(json.output.find("\"grid\": \"20x1x1\""), std::string::npos) << json.output;
    EXPECT_NE(json.output.find("\"mapping\": \"grid-stride\""), std::string::npos) << json.output;
    const auto text = test::run("--headless --backend cpu --op box_blur --block 32x8 --frames 1 --size 100x50");
    ASSERT_EQ(text.exit_code, 0) << text.output;
    EXPECT_NE(text.output.find("block 16x16x1  grid 7x4x1  mapping 2d (the op's own)"), std::string::npos)
        << text.output;
}

class CanvasInGl : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            context_ = std::make_unique<EglHeadlessContext>(-1);
        } catch (const ContextError& e) {
            GTEST_SKIP() << "no headless OpenGL: " << e.what();
        }
    }
    std::unique_ptr<EglHeadlessContext> context_;
};

// Stands in for a CUDA registration: notes whether the canvas' GL objects still existed when it
// was released.
struct ObjectsAtRelease {
    int releases = 0;
    bool objects_alive = true;
};

class FakeRegistration : public CanvasLink {
public:
    FakeRegistration(const Canvas& c, ObjectsAtRelease& seen)
        : buffer_(c.pixel_buffer()), texture_(c.texture()), seen_(seen) {}
    ~FakeRegistration() override {
        ++seen_.releases;
        seen_.objects_alive = seen_.objects_alive && glIsBuffer(buffer_) && glIsTexture(texture_);
    }

private:
    GLuint buffer_, texture_;
    ObjectsAtRelease& seen_;
};

TEST_F(CanvasInGl, ReleasesItsLinksBeforeDeletingTheObjectsOnResizeAndAtItsEnd) {
    ObjectsAtRelease seen;
    {
        Canvas canvas(64, 40);
        ASSERT_TRUE(glIsBuffer(canvas.pixel_buffer()) && glIsTexture(canvas.texture()));
        EXPECT_EQ(canvas.link<FakeRegistration>(), nullptr);
        FakeRegistration& held = canvas.add_link(std::make_unique<FakeRegistration>(canvas, seen));
        EXPECT_EQ(canvas.link<FakeRegistration>(), &held);
        canvas.resize(32, 16);
        EXPECT_EQ(seen.releases, 1);
        EXPECT_TRUE(seen.objects_alive) << "the GL objects went before what was bound to them (resize)";
        EXPECT_EQ(canvas.link<FakeRegistration>(), nullptr); // a new size registers anew
        canvas.add_link(std::make_unique<FakeRegistration>(canvas, seen));
    }
    EXPECT_EQ(seen.releases, 2);
    EXPECT_TRUE(seen.objects_alive) << "the GL objects went before what was bound to them (the canvas' end)";
}

// The cpu emulator's picture of `job`, painted here in the test's own thread.
std::vector<Pixel> emulated(const PaintJob& job) {
    std::vector<Pixel> out(std::size_t(job.params.width) * job.params.height, Pixel{1, 2, 3, 4});
    EXPECT_EQ(CpuGridEmulator().paint(job, out.data()), std::nullopt);
    return out;
}

// A frame that takes a good fraction of a second on two cores: most of the view is inside the
// set, where every pixel runs all its iterations.
PaintJob slow_frame(int w, int h) {
    PaintJob job = job_of("mandelbrot", w, h);
    job.params.max_iter = 3000;
    return job;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(CanvasInGl, TheWindowsPaintKeepsTheLastPictureWhileASlowCpuFrameRunsAndThenShowsIt) {
    FramePainter painter(Backend::Cpu);
    Canvas canvas(300, 300);
    const PaintJob gradient = job_of("gradient", 300, 300);
    ASSERT_EQ(painter.paint(gradient, canvas), std::nullopt);
    ASSERT_EQ(canvas.read_texture(), emulated(gradient));
    EXPECT_FALSE(painter.painting_seconds());

    const PaintJob slow = slow_frame(300, 300);
    const auto t0 = std::chrono::steady_clock::now();
    const auto wait = std::chrono::milliseconds(40);
    EXPECT_EQ(painter.paint_responsive(slow, resolve_launch(slow, painter.limits()), canvas, nullptr, true, wait),
              std::nullopt);
    const double answered = seconds_since(t0);
    ASSERT_TRUE(painter.painting_seconds())
        << "a frame of " << painter.times().kernel.last() / 1e6 << " s was not left painting on the worker";
    EXPECT_EQ(canvas.read_texture(), emulated(gradient)) << "the canvas lost the last finished picture";
    // A later frame of the window while it still paints: no second frame starts, nothing waits long.
    painter.paint_responsive(gradient, resolve_launch(gradient, painter.limits()), canvas, nullptr, true, wait);
    painter.finish_painting(canvas);
    EXPECT_EQ(canvas.read_texture(), emulated(slow));
    const double frame = painter.times().kernel.last() / 1e6;
    EXPECT_LT(answered, frame / 2) << "the window waited " << answered << " s for a frame of " << frame << " s";
    EXPECT_FALSE(painter.painting_seconds());
    // Every frame waited for (paint(), as headless and the tuner do) is the job's own picture.
    ASSERT_EQ(painter.paint(gradient, canvas), std::nullopt);
    EXPECT_EQ(canvas.read_texture(), emulated(gradient));
}

TEST_F(CanvasInGl, ACpuRefusalKeepsThePictureAndIsReportedUntilAFrameFinishes) {
    FramePainter painter(Backend::Cpu);
    Canvas canvas(37, 23); // odd sizes: rows that are no multiple of anything
    const PaintJob chess = job_of("checkerboard", 37, 23);
    ASSERT_EQ(painter.paint(chess, canvas), std::nullopt);
    PaintJob huge = job_of("gradient", 37, 23);
    huge.launch = LaunchConfig{.block = {1, 1, 1}, .grid = {1u << 25, 1, 1}, .auto_grid = false};
    const auto refusal = painter.paint(huge, canvas);
    ASSERT_TRUE(refusal);
    EXPECT_NE(refusal->find("emulates at most"), std::string::npos) << *refusal;
    EXPECT_EQ(canvas.read_texture(), emulated(chess));
    ASSERT_EQ(painter.paint(chess, canvas), std::nullopt);
}

TEST_F(CanvasInGl, APainterGoingAwayStopsItsSlowCpuFrame) {
    std::optional<FramePainter> painter(std::in_place, Backend::Cpu);
    Canvas canvas(300, 300);
    const PaintJob slow = slow_frame(300, 300);
    ASSERT_EQ(painter->paint(slow, canvas), std::nullopt); // how long a whole one takes here
    const double frame = painter->times().kernel.last() / 1e6;
    painter->paint_responsive(slow, resolve_launch(slow, painter->limits()), canvas, nullptr, true,
                              std::chrono::milliseconds(1));
    ASSERT_TRUE(painter->painting_seconds());
    const auto quit = std::chrono::steady_clock::now();
    painter.reset(); // as the window quits
    EXPECT_LT(seconds_since(quit), frame / 2) << "quitting waited for the whole frame of " << frame << " s";
}

} // namespace
} // namespace kc
