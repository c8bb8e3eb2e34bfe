// Every op through the CPU grid emulator, against the independent references.
#include <gtest/gtest.h>

#include "gpu/cpu_emulator.h"
#include "gpu/param_limits.h"
#include "tests/support/op_expectations.h"
#include "tests/support/poison.h"

namespace kc {
namespace {

std::vector<Pixel> paint(const PaintJob& job) {
    std::vector<Pixel> out(std::size_t(job.params.width) * job.params.height, test::kPoison);
    const auto error = CpuGridEmulator(2).paint(job, out.data());
    EXPECT_EQ(error, std::nullopt) << error.value_or("");
    return out;
}

TEST(CpuEmulator, EveryOpMatchesTheReferenceOverManyLaunches) {
    for (const PaintJob& job : ref::random_jobs(1234, 150, 120)) ASSERT_TRUE(ref::matches_reference(job, paint(job)));
}

// The columns mapping paints the same picture as 2d, only in another order: every generator op, on
// random sizes and blocks (a hand-set grid now and then), over a poisoned canvas.
TEST(CpuEmulator, ColumnsPaintsTheReferenceImage) {
    std::mt19937 rng(4242);
    for (int round = 0; round < 80; ++round) {
        PaintJob job;
        job.op = ref::generator_ops()[rng() % 3];
        job.params.width = 1 + int(rng() % 150), job.params.height = 1 + int(rng() % 110);
        job.params.cell = 1 + int(rng() % 40);
        job.params.weight = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
        job.launch = {.block = {1 + int(rng() % 64), 1 + int(rng() % 16), 1}, .mapping = Mapping::Columns};
        if (round % 4 == 0) job.launch.auto_grid = false, job.launch.grid = {1 + int(rng() % 8), 1 + int(rng() % 8), 1};
        ASSERT_TRUE(ref::matches_reference(job, paint(job)));
    }
}

TEST(CpuEmulator, GradientIsPixelExactToTheTutorialAt800) {
    PaintJob job; // gradient, 800x800, default launch
    job.launch = tutorial_preset();
    const auto out = paint(job);
    // Corners, as the tutorial's program saves them (BGR): blue 255-255*y/800, green 255-255*x/800, red 128-128*y/800.
    EXPECT_EQ(out[0], make_pixel(128, 255, 255));
    EXPECT_EQ(out[799], make_pixel(128, 255 - 254, 255));
    EXPECT_EQ(out[799 * 800], make_pixel(128 - 127, 255, 255 - 254));
    EXPECT_EQ(out[800 * 800 - 1], make_pixel(1, 1, 1));
    EXPECT_TRUE(ref::matches_reference(job, out));
}

TEST(CpuEmulator, TutorialBlendIsThreeQuartersGradient) {
    PaintJob job;
    job.op = find_op("blend")->index;
    job.launch = tutorial_preset();
    const auto out = paint(job);
    // (0,0): gradient (128,255,255) over a black cell: 0.75 * v, rounded half up.
    EXPECT_EQ(out[0], make_pixel(96, 191, 191));
    // (80,0): white cell: 0.75*v + 63.75.
    const ref::Rgb g = ref::gradient(80, 0, 800, 800);
    EXPECT_EQ(out[80], make_pixel(ref::mix(0.75, g.r, 255), ref::mix(0.75, g.g, 255), ref::mix(0.75, g.b, 255)));
}

// --integer: the tutorial's a*3/4 + b/4 in C integers, every pixel, with its launch (the rounded
// blend differs from it on most pixels, so this cannot pass by accident).
TEST(CpuEmulator, IntegerBlendIsPixelExactToTheTutorialsMerge) {
    PaintJob job;
    job.op = find_op("blend")->index;
    job.launch = tutorial_preset();
    ASSERT_EQ(set_param_text(job.params, "integer", "on"), std::nullopt);
    const auto out = paint(job);
    long long differs_from_rounded = 0;
    for (int y = 0; y < 800; ++y)
        for (int x = 0; x < 800; ++x) {
            const Pixel p = out[std::size_t(y) * 800 + x];
            ASSERT_TRUE(ref::same_rgb(p, ref::tutorial_merge(x, y, 800, 800, 80))) << x << "," << y;
            differs_from_rounded += !ref::same_rgb(p, ref::blend(x, y, 800, 800, 80, 0.75));
        }
    EXPECT_GT(differs_from_rounded, 800 * 800 / 2); // the option changes the picture
}

TEST(CpuEmulator, RefusedLaunchLeavesTheOutputUntouched) {
    PaintJob job;
    job.launch.block = {50, 30, 1};
    std::vector<Pixel> out(800 * 800, test::kPoison);
    const auto error = CpuGridEmulator(2).paint(job, out.data());
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("1024"), std::string::npos);
    for (const Pixel& p : out) ASSERT_EQ(p, test::kPoison);
}

TEST(CpuEmulator, TooSmallGridLeavesUncoveredPixelsInTheUncoveredColour) {
    PaintJob job;
    job.launch.auto_grid = false;
    job.launch.grid = {10, 10, 1}; // 320x80 of 800x800
    const auto out = paint(job);
    EXPECT_EQ(out[100 * 800 + 500], uncovered_pixel(500, 100));
    EXPECT_TRUE(ref::matches_reference(job, out));
}

TEST(Registry, NamesAreUniqueAndFindable) {
    for (const OpInfo& op : op_registry()) {
        ASSERT_NE(find_op(op.name), nullptr);
        EXPECT_EQ(find_op(op.name)->index, op.index);
        EXPECT_FALSE(op.formula.empty());
    }
    EXPECT_EQ(find_op("no-such-op"), nullptr);
}

} // namespace
} // namespace kc
