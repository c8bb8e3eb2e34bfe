// The block tuner's measurement (app/core/block_sweep.h) on the CPU backend, in a headless GL context:
// the candidates, one shape at most per step, a time slice that splits a shape across steps,
// Cancel, and the painter's own timings given back.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>
#include <utility>

#include "app/core/block_sweep.h"
#include "render/gl_context.h"

namespace kc {
namespace {

class BlockSweepTest : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            context_ = std::make_unique<EglHeadlessContext>(-1);
        } catch (const ContextError& e) {
            GTEST_SKIP() << "no headless OpenGL: " << e.what();
        }
        painter_ = std::make_unique<FramePainter>(Backend::Cpu);
        canvas_ = std::make_unique<Canvas>(64, 40);
        job_.params.width = 64, job_.params.height = 40;
    }
    std::unique_ptr<EglHeadlessContext> context_;
    std::unique_ptr<FramePainter> painter_;
    std::unique_ptr<Canvas> canvas_;
    PaintJob job_;
};

TEST(BlockSweepCandidates, AreTheTutorialsBlockThenEveryPowerOfTwoShapeOf32To1024Threads) {
    const std::vector<Dim3> c = sweep_candidates();
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c.front().x, 50);
    EXPECT_EQ(c.front().y, 20);
    std::set<std::pair<int, int>> shapes;
    for (std::size_t i = 1; i < c.size(); ++i) {
        const int threads = c[i].x * c[i].y;
        EXPECT_TRUE(threads >= 32 && threads <= 1024) << c[i].x << "x" << c[i].y;
        EXPECT_EQ(c[i].x & (c[i].x - 1), 0);
        EXPECT_EQ(c[i].y & (c[i].y - 1), 0);
        shapes.insert({c[i].x, c[i].y});
    }
    EXPECT_EQ(shapes.size(), c.size() - 1);             // no shape twice
    EXPECT_EQ(shapes.size(), 6u + 7 + 8 + 9 + 10 + 11); // 2^a x 2^b with a + b = 5..10
}

TEST_F(BlockSweepTest, EachStepMeasuresOneShapeAtMostAndTheResultsComeFastestFirst) {
    BlockSweep sweep(*painter_, *canvas_, job_, 2);
    std::size_t steps = 0;
    while (sweep.running()) {
        const std::size_t before = sweep.shapes_done();
        sweep.step();
        EXPECT_EQ(sweep.shapes_done(), before + 1);
        ++steps;
    }
    EXPECT_EQ(steps, sweep.shape_count());
    EXPECT_FALSE(sweep.cancelled());
    const auto& r = sweep.fastest_first();
    ASSERT_EQ(r.size(), sweep.shape_count()); // the CPU backend runs every candidate
    for (std::size_t i = 1; i < r.size(); ++i) EXPECT_LE(r[i - 1].median_us, r[i].median_us);
    EXPECT_FALSE(sweep.step()); // a finished sweep does nothing more
}

TEST_F(BlockSweepTest, ATimeSliceOfNothingPaintsOnceAndLeavesTheShapeForTheNextStep) {
    BlockSweep sweep(*painter_, *canvas_, job_, 3); // 3 + 5 warm-up paints a shape
    for (int paint = 1; paint < 8; ++paint) {
        EXPECT_TRUE(sweep.step(BlockSweep::Budget::zero()));
        EXPECT_EQ(sweep.shapes_done(), 0u) << "after paint " << paint;
    }
    sweep.step(BlockSweep::Budget::zero());
    EXPECT_EQ(sweep.shapes_done(), 1u);
}

TEST_F(BlockSweepTest, CancelStopsAndGivesThePainterItsTimingsBack) {
    job_.launch.block = {24, 8, 1};
    job_.view = View::Warp;
    for (int i = 0; i < 4; ++i) {
        ASSERT_FALSE(painter_->paint(job_, *canvas_));
        painter_->collect_timings();
    }
    const std::vector<float> history = painter_->times().kernel.history();
    ASSERT_EQ(history.size(), 4u);

    BlockSweep sweep(*painter_, *canvas_, job_, 2);
    sweep.step();
    sweep.step(BlockSweep::Budget::zero()); // the next shape begun
    sweep.cancel();
    EXPECT_TRUE(sweep.cancelled());
    EXPECT_FALSE(sweep.running());
    EXPECT_EQ(sweep.shapes_done(), 1u);
    EXPECT_EQ(sweep.fastest_first().size(), 1u);
    EXPECT_FALSE(sweep.step());
    EXPECT_EQ(painter_->times().kernel.history(), history);
    // What it measured: the op's pixels, an auto grid, the 2d mapping, whatever the job showed.
    EXPECT_EQ(sweep.job().view, View::Pixels);
    EXPECT_TRUE(sweep.job().launch.auto_grid);
}

TEST_F(BlockSweepTest, SweepBlocksRunsTheWholeSweepAndCallsBackOncePerShape) {
    int calls = 0;
    const auto results = sweep_blocks(*painter_, *canvas_, job_, 1, [&] { ++calls; });
    EXPECT_EQ(std::size_t(calls), sweep_candidates().size());
    EXPECT_EQ(results.size(), sweep_candidates().size());
}

} // namespace
} // namespace kc
