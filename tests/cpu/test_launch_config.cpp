// Launch-configuration checks: limits, round-up grids, the tutorial preset, refusals.
#include <gtest/gtest.h>

#include <random>

#include <iterator>

#include "gpu/fast_div.h"
#include "gpu/launch_config.h"
#include "gpu/ops/roofline.h"
#include "gpu/paint_job.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "tests/support/reference.h"

namespace kc {
namespace {

std::string error_for(Dim3 block, int w = 800, int h = 800) {
    LaunchConfig l;
    l.block = block;
    return launch_error(l, w, h, universal_limits()).value_or("");
}

TEST(LaunchConfig, AcceptsLegalBlocks) {
    EXPECT_EQ(error_for({32, 8, 1}), "");
    EXPECT_EQ(error_for({32, 32, 1}), ""); // exactly 1024 threads
    EXPECT_EQ(error_for({1024, 1, 1}), "");
    EXPECT_EQ(error_for({1, 1024, 1}), "");
    EXPECT_EQ(error_for({1, 1, 64}), "");
    EXPECT_EQ(error_for({50, 20, 1}), "");
}

TEST(LaunchConfig, RefusesOversizedBlocksNamingTheLimitAndNumbers) {
    const std::string e = error_for({50, 30, 1});
    EXPECT_NE(e.find("1500"), std::string::npos) << e;
    EXPECT_NE(e.find("1024"), std::string::npos) << e;
    EXPECT_NE(error_for({1025, 1, 1}).find("block x = 1025"), std::string::npos);
    EXPECT_NE(error_for({1, 1025, 1}).find("block y = 1025"), std::string::npos);
    EXPECT_NE(error_for({1, 1, 65}).find("block z = 65"), std::string::npos);
    EXPECT_NE(error_for({33, 32, 1}).find("1056"), std::string::npos);
}

TEST(LaunchConfig, RefusesZeroAndNegativeDimensions) {
    EXPECT_NE(error_for({0, 8, 1}), "");
    EXPECT_NE(error_for({8, -1, 1}), "");
    LaunchConfig l;
    l.auto_grid = false;
    l.grid = {0, 4, 1};
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()).value_or("").find("grid"), std::string::npos);
}

TEST(LaunchConfig, RefusesGridsOverTheLimit) {
    LaunchConfig l;
    l.auto_grid = false;
    l.grid = {1, 65536, 1};
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()).value_or("").find("65535"), std::string::npos);
    l.grid = {1, 1, 65536};
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()).value_or("").find("grid z"), std::string::npos);
    l.grid = {2147483647, 1, 1};
    EXPECT_EQ(launch_error(l, 800, 800, universal_limits()), std::nullopt);
}

TEST(LaunchConfig, DeviceLimitsApplyWhenTighter) {
    DeviceLimits small;
    small.max_threads_per_block = 512;
    LaunchConfig l;
    l.block = {32, 32, 1};
    EXPECT_NE(launch_error(l, 800, 800, small).value_or("").find("512"), std::string::npos);
}

TEST(LaunchConfig, AutoGridRoundsUp) {
    EXPECT_EQ(auto_grid({32, 8, 1}, 800, 800, Mapping::TwoD), (Dim3{25, 100, 1}));
    EXPECT_EQ(auto_grid({32, 8, 1}, 801, 801, Mapping::TwoD), (Dim3{26, 101, 1}));
    EXPECT_EQ(auto_grid({50, 20, 1}, 3840, 2160, Mapping::TwoD), (Dim3{77, 108, 1}));
    const Dim3 linear = auto_grid({50, 20, 1}, 800, 800, Mapping::Linear);
    EXPECT_GE(linear.count() * 1000, 640000);
    EXPECT_LT((linear.count() - 1) * 1000, 640000 + 1000LL * linear.x);
    for (Mapping m : kAllMappings)
        for (int w : {1, 7, 800, 3840})
            EXPECT_TRUE(coverage({.block = {32, 8, 1}, .mapping = m}, w, w / 2 + 1).covers_all());
}

TEST(LaunchConfig, TutorialPresetCoversExactlyWithLinearMapping) {
    const LaunchConfig t = tutorial_preset();
    EXPECT_EQ(t.block, (Dim3{50, 20, 1}));
    EXPECT_EQ(t.grid, (Dim3{80, 8, 1}));
    EXPECT_EQ(t.mapping, Mapping::Linear);
    const Coverage c = coverage(t, 800, 800);
    EXPECT_EQ(c.threads, 640000);
    EXPECT_TRUE(c.covers_all());
    EXPECT_EQ(c.repeated_writes, 0);
    // With 2d indexing the same grid reaches only rows 0..159: the tutorial's flattening matters.
    LaunchConfig two_d = t;
    two_d.mapping = Mapping::TwoD;
    EXPECT_EQ(coverage(two_d, 800, 800).covered_pixels, 800 * 160);
}

TEST(LaunchConfig, CoverageMatchesBruteForceCount) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 300; ++trial) {
        LaunchConfig l;
        l.block = {1 + int(rng() % 40), 1 + int(rng() % 12), 1 + int(rng() % 2)};
        l.auto_grid = rng() % 3 == 0;
        l.grid = {1 + int(rng() % 9), 1 + int(rng() % 9), 1 + int(rng() % 2)};
        l.mapping = kAllMappings[rng() % std::size(kAllMappings)];
        const int w = 1 + int(rng() % 70), h = 1 + int(rng() % 50);
        const auto count = ref::writes_per_pixel(l, resolved_grid(l, w, h), w, h);
        long long covered = 0, repeated = 0;
        for (int c : count) covered += c > 0, repeated += c > 1 ? c - 1 : 0;
        const Coverage c = coverage(l, w, h);
        ASSERT_EQ(c.covered_pixels, covered) << to_string(l.block) << " " << w << "x" << h;
        ASSERT_EQ(c.repeated_writes, repeated);
    }
}

TEST(LaunchConfig, FourPixelsPerThreadNeedsThe2dMappingAndQuartersTheGrid) {
    LaunchConfig l;
    l.pixels_per_thread = 4;
    EXPECT_EQ(resolved_grid(l, 3840, 2160), (Dim3{30, 270, 1}));
    EXPECT_EQ(resolved_grid(l, 3841, 2160), (Dim3{31, 270, 1}));
    EXPECT_TRUE(coverage(l, 3841, 2160).covers_all());
    l.mapping = Mapping::Linear;
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()).value_or("").find("2d"), std::string::npos);
    l.mapping = Mapping::TwoD;
    l.pixels_per_thread = 3;
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()), std::nullopt);
}

TEST(LaunchConfig, ColumnsParsesAndIsListed) {
    EXPECT_EQ(parse_mapping("columns"), Mapping::Columns);
    EXPECT_EQ(mapping_name(Mapping::Columns), "columns");
    EXPECT_EQ(mapping_names(), "2d, columns, linear, grid-stride");
    EXPECT_TRUE(is_tiled(Mapping::Columns));
    EXPECT_FALSE(is_tiled(Mapping::Linear));
}

// Columns exchanges the axes: grid.x covers the height in steps of blockDim.x, grid.y the width in
// steps of blockDim.y.
TEST(LaunchConfig, ColumnsAutoGridCoversTheHeightWithGridX) {
    EXPECT_EQ(auto_grid({32, 8, 1}, 3840, 2160, Mapping::Columns), (Dim3{68, 480, 1}));
    EXPECT_EQ(auto_grid({32, 8, 1}, 800, 600, Mapping::Columns), (Dim3{19, 100, 1}));
    EXPECT_EQ(auto_grid({1, 32, 1}, 3840, 2160, Mapping::Columns), (Dim3{2160, 120, 1}));
    EXPECT_EQ(auto_grid({50, 20, 1}, 801, 333, Mapping::Columns), (Dim3{7, 41, 1}));
    std::mt19937 rng(31);
    for (int trial = 0; trial < 200; ++trial) {
        LaunchConfig l{.block = {1 + int(rng() % 40), 1 + int(rng() % 12), 1}, .mapping = Mapping::Columns};
        const int w = 1 + int(rng() % 90), h = 1 + int(rng() % 70);
        const Dim3 g = resolved_grid(l, w, h);
        // The smallest grid that reaches every pixel, and every pixel exactly once.
        EXPECT_GE(1LL * g.x * l.block.x, h);
        EXPECT_LT(1LL * (g.x - 1) * l.block.x, h);
        EXPECT_GE(1LL * g.y * l.block.y, w);
        EXPECT_LT(1LL * (g.y - 1) * l.block.y, w);
        for (int n : ref::writes_per_pixel(l, g, w, h)) ASSERT_EQ(n, 1) << to_string(l.block) << " " << w << "x" << h;
        EXPECT_TRUE(coverage(l, w, h).covers_all());
    }
}

TEST(LaunchConfig, ColumnsKeepsTheLimitsAndRefusesFourPixelsPerThread) {
    LaunchConfig l{.block = {32, 8, 1}, .grid = {10, 70000, 1}, .auto_grid = false, .mapping = Mapping::Columns};
    EXPECT_NE(launch_error(l, 800, 800, universal_limits()).value_or("").find("grid y = 70000"), std::string::npos);
    l.auto_grid = true;
    l.block = {1024, 1, 1}; // the widest picture needs 16384 blocks in y: under the limit
    EXPECT_EQ(launch_error(l, 16384, 16384, universal_limits()), std::nullopt);
    l.pixels_per_thread = 4;
    EXPECT_EQ(launch_error(l, 800, 800, universal_limits()), "4 pixels per thread needs the 2d mapping");
}

TEST(FastDiv, EqualsIntegerDivision) {
    std::mt19937 rng(3);
    std::vector<std::uint32_t> divisors{1, 2, 3, 7, 80, 255, 799, 800, 801, 1080, 2160, 3840, 4320, 7680, 16383, 16384};
    for (int i = 0; i < 200; ++i) divisors.push_back(1 + rng() % 70000);
    for (std::uint32_t d : divisors) {
        const FastDiv by(d);
        // Every multiple of d and its neighbours (where rounding would fail first), plus random numerators.
        for (std::uint64_t q = 0; q * d < (1ULL << 31); q += 1 + q / 64)
            for (std::int64_t delta : {-1, 0, 1}) {
                const std::int64_t n = std::int64_t(q * d) + delta;
                if (n < 0 || n >= (1LL << 31)) continue;
                ASSERT_EQ(by(std::uint32_t(n)), std::uint32_t(n) / d) << n << " / " << d;
            }
        for (int k = 0; k < 2000; ++k) {
            const std::uint32_t n = rng() & 0x7fffffffU;
            ASSERT_EQ(by(n), n / d) << n << " / " << d;
        }
    }
}

TEST(LaunchConfig, ParsesDimensions) {
    EXPECT_EQ(parse_dim3("32x8"), (Dim3{32, 8, 1}));
    EXPECT_EQ(parse_dim3("50X20x1"), (Dim3{50, 20, 1}));
    EXPECT_EQ(parse_dim3("256"), (Dim3{256, 1, 1}));
    EXPECT_EQ(parse_dim3("0x0"), (Dim3{0, 0, 1}));
    for (const char* bad : {"", "x", "32x", "x8", "32x8x1x1", "abc", "32*8", "3 2"})
        EXPECT_EQ(parse_dim3(bad), std::nullopt) << bad;
}

TEST(LaunchConfig, CanvasSizeLimits) {
    EXPECT_EQ(canvas_size_error(800, 800), std::nullopt);
    EXPECT_EQ(canvas_size_error(16384, 16384), std::nullopt);
    EXPECT_NE(canvas_size_error(0, 800), std::nullopt);
    EXPECT_NE(canvas_size_error(16385, 10), std::nullopt);
}

// Custom ops launch their own block and grid (one declaration in the op), whatever the panel's
// launch says: the painter's plan, effective_launch and so the panel and the report agree.
TEST(LaunchConfig, CustomOpsLaunchTheirOwnShape) {
    struct Case {
        const char* op;
        int width, height;
        Dim3 block, grid;
        Mapping mapping;
    };
    for (const Case& c : {Case{"box_blur", 100, 50, {16, 16, 1}, {7, 4, 1}, Mapping::TwoD},
                          Case{"sobel", 100, 50, {16, 16, 1}, {7, 4, 1}, Mapping::TwoD},
                          Case{"matmul", 100, 50, {16, 16, 1}, {7, 4, 1}, Mapping::TwoD},
                          Case{"histogram", 100, 50, {256, 1, 1}, {20, 1, 1}, Mapping::GridStride},
                          Case{"histogram", 4096, 4096, {256, 1, 1}, {1024, 1, 1}, Mapping::GridStride}}) {
        SCOPED_TRACE(std::string(c.op) + " " + std::to_string(c.width) + "x" + std::to_string(c.height));
        PaintJob job;
        job.op = find_op(c.op)->index;
        job.params.width = c.width, job.params.height = c.height;
        job.launch.block = {50, 20, 1}; // the panel's, which these ops ignore
        const LaunchConfig l = effective_launch(job);
        EXPECT_EQ(l.block, c.block);
        EXPECT_EQ(l.mapping, c.mapping);
        EXPECT_EQ(resolved_grid(l, c.width, c.height), c.grid);
        const ResolvedLaunch plan = resolve_launch(job, universal_limits());
        ASSERT_FALSE(plan.refusal) << *plan.refusal;
        EXPECT_EQ(plan.grid, c.grid);
        EXPECT_TRUE(coverage(l, c.width, c.height).covers_all());
    }
}

// Every number the command line, the script and the panel set for an op goes through param_error:
// NaN and infinities never pass, and the message names the parameter, the value and the range.
TEST(ParamLimits, RefusesNanInfinityAndOutOfRangeNamingTheRange) {
    for (const ParamSpec& l : kParams) {
        SCOPED_TRACE(std::string(l.name));
        EXPECT_FALSE(param_error(l.name, l.default_value)) << "the default must pass";
        EXPECT_FALSE(param_error(l.name, l.lo));
        EXPECT_FALSE(param_error(l.name, l.hi));
        for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL, l.lo - 1, l.hi + 1}) {
            const auto e = param_error(l.name, bad);
            ASSERT_TRUE(e) << bad;
            EXPECT_NE(e->find(std::string(l.name)), std::string::npos) << *e;
            EXPECT_NE(e->find(fmt::format("from {:g} to {:g}", l.lo, l.hi)), std::string::npos) << *e;
        }
    }
    EXPECT_EQ(*param_error("weight", std::nan("")), "weight nan is not a number from 0 to 1");
    EXPECT_TRUE(param_error("level", 1.5));
    EXPECT_TRUE(param_error("matmul-n", 100));
    EXPECT_FALSE(param_error("matmul-n", 4096));
    EXPECT_FALSE(param_error("center-x", -0.5));
    EXPECT_TRUE(param_error("center-x", 1e308));
    EXPECT_TRUE(param_error("zoom", 0));
    EXPECT_TRUE(param_error("no-such", 1));
}

// The table's defaults are OpParams' own, and every value goes in and out by name, as a number
// and as text, unchanged; a refused value leaves the parameters as they were.
TEST(ParamTable, GetAndSetByNameAsNumberAndText) {
    const OpParams defaults;
    for (const ParamSpec& s : kParams) {
        SCOPED_TRACE(std::string(s.name));
        EXPECT_DOUBLE_EQ(param_value(s, defaults), s.default_value);
        EXPECT_FALSE(params_error(defaults));
        std::mt19937 rng(std::hash<std::string_view>{}(s.name));
        for (int i = 0; i < 20; ++i) {
            double v = std::uniform_real_distribution<double>(s.lo, s.hi)(rng);
            if (s.whole()) v = std::floor(v / s.multiple_of) * s.multiple_of;
            if (s.kind == ParamKind::Float) v = static_cast<float>(v);
            OpParams p;
            ASSERT_FALSE(set_param(p, s.name, v));
            EXPECT_DOUBLE_EQ(*get_param(p, s.name), v);
            const std::string text = param_text(s, p);
            OpParams q;
            ASSERT_FALSE(set_param_text(q, s.name, text)) << text;
            EXPECT_EQ(s.read(q), s.read(p)) << text; // the field, bit for bit
            EXPECT_FALSE(params_error(q));
        }
        OpParams p;
        EXPECT_TRUE(set_param(p, s.name, s.hi + 1));
        EXPECT_TRUE(set_param_text(p, s.name, "nan"));
        EXPECT_EQ(s.read(p), s.read(defaults)) << "a refused value must leave the old one";
    }
    OpParams p;
    EXPECT_FALSE(set_param_text(p, "variant", "tiled"));
    EXPECT_EQ(p.variant, 1);
    EXPECT_EQ(param_text(*find_param("variant"), p), "tiled");
    EXPECT_FALSE(set_param_text(p, "double", "on"));
    EXPECT_TRUE(p.use_double);
    EXPECT_EQ(*set_param_text(p, "variant", "fast"), "variant 'fast' is not naive, tiled or registers");
    EXPECT_FALSE(set_param_text(p, "variant", "registers"));
    EXPECT_EQ(param_text(*find_param("variant"), p), "registers");
    p.variant = 1;
    EXPECT_EQ(*set_param_text(p, "level", "12x"), "level '12x' is not a number");
    EXPECT_TRUE(set_param_text(p, "no-such", "1"));
    p.level = 300; // set behind the table's back: the paint's check refuses it, naming it
    EXPECT_EQ(*params_error(p), "level 300 is not a whole number from 0 to 256");
}

} // namespace
} // namespace kc

namespace kc {
namespace {

// The panel's roofline line: the kernel time, its percentage of a copy of the same bytes, and that
// copy's time, from the copy bandwidth measured when CUDA started; nothing without a figure.
TEST(Roofline, TextStatesThePercentAndTheCopyOfTheSameBytes) {
    const OpInfo& blur = *find_op("box_blur");
    // 7680 x 4320 x (4 read + 4 written) = 265,420,800 bytes; at 3900 GB/s a copy takes 68.06 us.
    EXPECT_EQ(roofline_text("tiled", blur, 7680, 4320, 164.0, 3900.0),
              "tiled 164 us: 41 % of roofline (copy of the same bytes: 68 us)");
    EXPECT_NEAR(percent_of_roofline(blur, 7680, 4320, 68.055, 3900.0), 100.0, 0.01);
    EXPECT_EQ(roofline_text("tiled", blur, 7680, 4320, 164.0, 0.0), "") << "the cpu backend: no copy figure";
    EXPECT_EQ(roofline_text("tiled", blur, 7680, 4320, 0.0, 3900.0), "") << "no kernel time yet";
    EXPECT_EQ(roofline_text("naive", *find_op("matmul"), 800, 800, 90.0, 3900.0), "") << "matmul: GFLOP/s instead";
    EXPECT_EQ(roofline_text("kernel", *find_op("gradient"), 7680, 4320, 82.0, 3900.0),
              "kernel 82 us: 41 % of roofline (copy of the same bytes: 34 us)")
        << "a write-only op's roofline is a copy of its writes";
}

// Without its images an op computes them (the fallbacks), so the panel says why there is no
// roofline instead of a percentage of bytes the kernel never read.
TEST(Roofline, AnOpWithoutItsImagesSaysItComputesThemInstead) {
    const OpInfo &blend = *find_op("blend"), &invert = *find_op("invert"), &gradient = *find_op("gradient");
    EXPECT_EQ(generated_inputs(blend, false, false), unsigned(kUsesImageA | kUsesImageB));
    EXPECT_EQ(generated_inputs(blend, true, false), unsigned(kUsesImageB));
    EXPECT_EQ(generated_inputs(blend, true, true), 0u);
    EXPECT_EQ(generated_inputs(invert, false, false), unsigned(kUsesImageA));
    EXPECT_EQ(generated_inputs(invert, true, false), 0u);
    EXPECT_EQ(generated_inputs(gradient, false, false), 0u) << "reads nothing: its roofline is its writes";
    EXPECT_EQ(generated_inputs_note(0), "");
    EXPECT_EQ(generated_inputs_note(kUsesImageA),
              "No roofline: without image A the op computes the gradient instead of reading it; load one to "
              "compare the kernel with a copy of the bytes it reads and writes.");
    EXPECT_NE(generated_inputs_note(kUsesImageA | kUsesImageB).find("without images A and B"), std::string::npos);
    EXPECT_NE(generated_inputs_note(kUsesImageB).find("computes the checkerboard instead of reading it"),
              std::string::npos);
}

// The tiled stencils compute 4 outputs a thread (a block covers 64x16 pixels; the box blur's
// threads 4 on each of 2 rows): the launch the panel, the inspector and the report read says so.
// The tiled box blur at another radius than 2 keeps one output a thread.
TEST(LaunchConfig, TiledStencilsLaunchFourPixelsAThread) {
    struct Case {
        const char* op;
        int radius, pixels_per_thread, rows_per_thread;
        Dim3 block, grid;
    };
    for (const Case& c :
         {Case{"box_blur", 2, 4, 2, {16, 8, 1}, {2, 4, 1}}, Case{"sobel", 2, 4, 1, {16, 16, 1}, {2, 4, 1}},
          Case{"box_blur", 3, 1, 1, {16, 16, 1}, {7, 4, 1}}}) {
        SCOPED_TRACE(std::string(c.op) + " radius " + std::to_string(c.radius));
        PaintJob job;
        job.op = find_op(c.op)->index;
        job.params.width = 100, job.params.height = 50, job.params.variant = 1, job.params.radius = c.radius;
        const LaunchConfig l = effective_launch(job);
        EXPECT_EQ(l.block, c.block);
        EXPECT_EQ(l.pixels_per_thread, c.pixels_per_thread);
        EXPECT_EQ(l.rows_per_thread, c.rows_per_thread);
        EXPECT_EQ(resolved_grid(l, 100, 50), c.grid);
        EXPECT_TRUE(coverage(l, 100, 50).covers_all());
    }
}

// The inspector's inverse of the two-row launch: pixel (x, y) is painted by the thread whose 4x2
// patch holds it, as the independent enumeration of every thread (reference.h) counts it once.
TEST(LaunchConfig, TwoRowsAThreadAreInvertedPixelByPixel) {
    const LaunchConfig l = two_row_quad_tile_launch();
    const int w = 100, h = 50;
    const Dim3 grid = resolved_grid(l, w, h);
    const std::vector<int> writes = ref::writes_per_pixel(l, grid, w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const PixelWriter p = thread_of_pixel(l, grid, w, h, x, y);
            ASSERT_TRUE(p.covered) << x << "," << y;
            EXPECT_EQ(p.block_idx.x * 16 + p.thread_idx.x, x / 4) << x << "," << y;
            EXPECT_EQ(p.block_idx.y * 8 + p.thread_idx.y, y / 2) << x << "," << y;
            EXPECT_EQ(writes[std::size_t(y) * w + x], 1) << x << "," << y;
        }
    EXPECT_TRUE(coverage(l, w, h).covers_all());
    EXPECT_NE(mapping_formula(l, grid, w, h).find("y = (blockIdx.y*8 + threadIdx.y)*2"), std::string::npos)
        << mapping_formula(l, grid, w, h);
}

// matmul has a third kernel; the other ops refuse the variant they lack, naming what they have.
TEST(Variants, AnOpRefusesAVariantItHasNot) {
    EXPECT_EQ(find_op("matmul")->variants, 3);
    EXPECT_EQ(variant_error(*find_op("matmul"), 2), std::nullopt);
    EXPECT_EQ(variant_error(*find_op("box_blur"), 2), "variant registers: box_blur has 2 kernels, naive or tiled");
    EXPECT_EQ(variant_error(*find_op("gradient"), 2), std::nullopt) << "one kernel: the parameter does not apply";
    PaintJob job;
    job.op = find_op("sobel")->index;
    job.params.variant = 2;
    EXPECT_EQ(resolve_launch(job, universal_limits()).refusal,
              "variant registers: sobel has 2 kernels, naive or tiled");
    job.op = find_op("matmul")->index;
    EXPECT_EQ(resolve_launch(job, universal_limits()).refusal, std::nullopt);
}

} // namespace
} // namespace kc
