// Thread indexing as the teaching views show it, on the CPU grid emulator: every view's pixels
// against an independent reference, coverage counts against a brute-force count, the inverse
// mapping against the forward one, and the launch figures of the device panel.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "gpu/cpu_emulator.h"
#include "gpu/launch_figures.h"
#include "gpu/ops/gradient.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "tests/support/indexing_reference.h"
#include "tests/support/poison.h"

namespace kc {
namespace {

using test::Thread;

using test::kPoison;

ThreadCoords coords(const Thread& t, const LaunchConfig& c, const Dim3& g) {
    return ThreadCoords{unsigned(t.bx),      unsigned(t.by), unsigned(t.bz),      unsigned(t.tx),
                        unsigned(t.ty),      unsigned(t.tz), unsigned(c.block.x), unsigned(c.block.y),
                        unsigned(c.block.z), unsigned(g.x),  unsigned(g.y),       unsigned(g.z)};
}

// The colour a view gives a thread, from the view's definition written out here; the palettes
// themselves (block, warp, sm) come from thread_body.h, their indices from the reference.
Pixel expected_colour(View v, const Thread& t, const LaunchConfig& c, const Dim3& g, int width) {
    const int tib = (t.tz * c.block.y + t.ty) * c.block.x + t.tx;
    switch (v) {
    case View::Thread:
        return make_pixel(c.block.x > 1 ? t.tx * 255 / (c.block.x - 1) : 0,
                          c.block.y > 1 ? t.ty * 255 / (c.block.y - 1) : 0, 96);
    case View::Lane:
        return make_pixel((tib % 32) * 255 / 31, 255 - (tib % 32) * 255 / 31, 160);
    case View::Warp:
        return warp_colour(unsigned(tib / 32));
    case View::Linear: {
        const long long total = 1LL * c.block.x * c.block.y * g.x * g.y;
        const long long index = (1LL * t.by * g.x + t.bx) * c.block.x * c.block.y + 1LL * t.ty * c.block.x + t.tx;
        const int level = int(index * 255 / (total > 1 ? total - 1 : 1));
        return make_pixel(level, level, 255 - level / 2);
    }
    case View::Block:
        return block_colour(coords(t, c, g), c.mapping, unsigned(width));
    default:
        return view_colour(v, coords(t, c, g), 0, c.mapping, unsigned(width));
    }
}

std::vector<Pixel> emulate(const PaintJob& job, PixelRecord record = {}, unsigned workers = 2) {
    std::vector<Pixel> out(std::size_t(job.params.width) * job.params.height, kPoison);
    const auto error = CpuGridEmulator(workers).paint(job, out.data(), nullptr, record);
    EXPECT_FALSE(error) << *error;
    return out;
}

std::string describe(const LaunchConfig& c, const Dim3& g, int w, int h) {
    return fmt::format("{} block {} grid {} on {}x{}", mapping_name(c.mapping), to_string(c.block), to_string(g), w, h);
}

TEST(Views, EveryViewMatchesTheReferenceForRandomLaunches) {
    std::mt19937 rng(20261130);
    for (int round = 0; round < 60; ++round) {
        const int width = std::uniform_int_distribution<int>(1, 97)(rng);
        const int height = std::uniform_int_distribution<int>(1, 61)(rng);
        PaintJob job;
        job.params.width = width, job.params.height = height;
        job.launch = test::random_launch(rng, width, height);
        const Dim3 g = resolved_grid(job.launch, width, height);
        for (View v : {View::Block, View::Thread, View::Warp, View::Lane, View::Linear}) {
            job.view = v;
            const auto out = emulate(job);
            std::vector<Pixel> expected(out.size());
            std::vector<bool> written(out.size(), false);
            test::for_each_write(job.launch, g, width, height, [&](const Thread& t, long long i) {
                expected[std::size_t(i)] = expected_colour(v, t, job.launch, g, width);
                written[std::size_t(i)] = true;
            });
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x) {
                    const std::size_t i = std::size_t(y) * width + x;
                    const Pixel want = written[i] ? expected[i] : uncovered_pixel(x, y);
                    ASSERT_EQ(out[i], want) << view_name(v) << " pixel (" << x << "," << y << ") "
                                            << describe(job.launch, g, width, height);
                }
        }
    }
}

TEST(Views, PixelsViewWritesTheOperationWhereCovered) {
    PaintJob job;
    job.params.width = 53, job.params.height = 31;
    job.launch = {.block = {8, 4, 1}, .grid = {3, 3, 1}, .auto_grid = false, .mapping = Mapping::TwoD};
    const auto out = emulate(job);
    OpParams prepared = job.params; // the op's own functor, as the backends call it
    prepare_divisors(prepared);
    for (int y = 0; y < 31; ++y)
        for (int x = 0; x < 53; ++x) {
            const Pixel want = (x < 24 && y < 12) ? GradientOp{}(x, y, prepared) : uncovered_pixel(x, y);
            ASSERT_EQ(out[std::size_t(y) * 53 + x], want) << x << "," << y;
        }
}

TEST(Views, UncoveredPixelsAreHatched) {
    std::set<uint32_t> seen;
    for (int x = 0; x < 16; ++x) {
        const Pixel p = uncovered_pixel(x, 0);
        seen.insert(uint32_t(p.r) << 16 | uint32_t(p.g) << 8 | p.b);
    }
    EXPECT_EQ(seen.size(), 2u) << "the hatch has two colours";
}

// Neighbouring pixels written by different blocks never get the same block colour.
TEST(Views, NeighbouringBlocksHaveDifferentColours) {
    std::mt19937 rng(7);
    for (int round = 0; round < 80; ++round) {
        const int width = std::uniform_int_distribution<int>(8, 120)(rng);
        const int height = std::uniform_int_distribution<int>(8, 60)(rng);
        PaintJob job;
        job.params.width = width, job.params.height = height;
        job.launch = test::random_launch(rng, width, height);
        job.view = View::Block;
        const Dim3 g = resolved_grid(job.launch, width, height);
        const auto out = emulate(job);
        auto check = [&](int x0, int y0, int x1, int y1) {
            const PixelWriter a = thread_of_pixel(job.launch, g, width, height, x0, y0);
            const PixelWriter b = thread_of_pixel(job.launch, g, width, height, x1, y1);
            if (!a.covered || !b.covered || a.block_in_launch == b.block_in_launch) return;
            ASSERT_FALSE(out[std::size_t(y0) * width + x0] == out[std::size_t(y1) * width + x1])
                << "blocks " << a.block_in_launch << " and " << b.block_in_launch << " at (" << x0 << "," << y0
                << ") and (" << x1 << "," << y1 << ") share a colour; " << describe(job.launch, g, width, height);
        };
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                if (x + 1 < width) check(x, y, x + 1, y);
                if (y + 1 < height) check(x, y, x, y + 1);
            }
    }
}

TEST(Mappings, TutorialLinearBlockPaintsItsThousandPixels) {
    const LaunchConfig c = tutorial_preset(); // block 50x20, grid 80x8, linear
    const Dim3 g = resolved_grid(c, 800, 800);
    std::vector<long long> first(640, -1), last(640, -1), count(640, 0);
    test::for_each_write(c, g, 800, 800, [&](const Thread& t, long long i) {
        const int b = t.by * 80 + t.bx;
        if (first[b] < 0) first[b] = i;
        last[b] = std::max(last[b], i);
        ++count[b];
    });
    for (int b = 0; b < 640; ++b) {
        EXPECT_EQ(first[b], 1000LL * b);
        EXPECT_EQ(last[b], 1000LL * b + 999);
        EXPECT_EQ(count[b], 1000);
    }
    // And the inverse mapping agrees for every pixel.
    for (int i = 0; i < 640000; i += 7) {
        const PixelWriter w = thread_of_pixel(c, g, 800, 800, i % 800, i / 800);
        ASSERT_TRUE(w.covered);
        EXPECT_EQ(w.block_in_launch, i / 1000);
        EXPECT_EQ(w.thread_in_block, i % 1000);
    }
    // The emulator's block-view picture agrees as well: block b's colour on pixels 1000b..1000b+999.
    PaintJob job;
    job.launch = c;
    job.view = View::Block;
    const auto out = emulate(job);
    for (int b = 0; b < 640; b += 13) {
        ThreadCoords t{unsigned(b % 80), unsigned(b / 80), 0, 0, 0, 0, 50, 20, 1, 80, 8, 1};
        const Pixel want = block_colour(t, Mapping::Linear, 800);
        for (int i = 1000 * b; i < 1000 * b + 1000; ++i) ASSERT_EQ(out[std::size_t(i)], want) << "block " << b;
    }
}

TEST(Mappings, FormulaShowsTheNumbers) {
    const LaunchConfig c = tutorial_preset();
    const std::string linear = mapping_formula(c, c.grid, 800, 800);
    EXPECT_NE(linear.find("i = (blockIdx.x + blockIdx.y*80)*1000 + threadIdx.y*50 + threadIdx.x"), std::string::npos)
        << linear;
    EXPECT_NE(linear.find("block b paints pixels 1000*b .. 1000*b + 999"), std::string::npos) << linear;
    LaunchConfig two_d = c;
    two_d.mapping = Mapping::TwoD;
    EXPECT_NE(mapping_formula(two_d, c.grid, 800, 800).find("x = blockIdx.x*50 + threadIdx.x"), std::string::npos);
    LaunchConfig columns = c;
    columns.mapping = Mapping::Columns;
    EXPECT_NE(mapping_formula(columns, c.grid, 800, 800).find("y = blockIdx.x*50 + threadIdx.x"), std::string::npos);
    LaunchConfig stride = c;
    stride.mapping = Mapping::GridStride;
    EXPECT_NE(mapping_formula(stride, {10, 1, 1}, 800, 800).find("i += 10000"), std::string::npos);
}

// Inverse mapping: each pixel's writer, run forwards, lands on that pixel.
TEST(InverseMapping, RoundTripsAgainstTheForwardMapping) {
    std::mt19937 rng(99);
    for (int round = 0; round < 200; ++round) {
        const int width = std::uniform_int_distribution<int>(1, 70)(rng);
        const int height = std::uniform_int_distribution<int>(1, 50)(rng);
        LaunchConfig c = test::random_launch(rng, width, height);
        if (round % 5 == 0) c.block.z = 2; // z layers repeat the plane
        const Dim3 g = resolved_grid(c, width, height);
        std::vector<std::vector<Thread>> writers(std::size_t(width) * height);
        std::vector<long long> pass_of(writers.size(), 0);
        std::vector<int> visits_by_thread;
        test::for_each_write(c, g, width, height,
                             [&](const Thread& t, long long i) { writers[std::size_t(i)].push_back(t); });
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const auto& all = writers[std::size_t(y) * width + x];
                const PixelWriter w = thread_of_pixel(c, g, width, height, x, y);
                ASSERT_EQ(w.covered, !all.empty()) << x << "," << y << " " << describe(c, g, width, height);
                if (all.empty()) continue;
                EXPECT_EQ(w.writers, (long long)all.size());
                const Thread& t = all.front(); // z layer 0 comes first in launch order
                ASSERT_EQ(w.block_idx, (Dim3{t.bx, t.by, 0})) << x << "," << y << " " << describe(c, g, width, height);
                ASSERT_EQ(w.thread_idx, (Dim3{t.tx, t.ty, 0})) << x << "," << y << " " << describe(c, g, width, height);
                EXPECT_EQ(w.block_in_launch, 1LL * t.by * g.x + t.bx);
                EXPECT_EQ(w.warp * 32 + w.lane, t.ty * c.block.x + t.tx);
                if (c.mapping == Mapping::GridStride) {
                    const long long stride = 1LL * c.block.x * c.block.y * g.x * g.y;
                    EXPECT_EQ(w.pass, (1LL * y * width + x) / stride);
                }
            }
    }
}

TEST(InverseMapping, BlockRectsHoldExactlyTheBlocksPixels) {
    std::mt19937 rng(5);
    for (int round = 0; round < 100; ++round) {
        const int width = std::uniform_int_distribution<int>(1, 60)(rng);
        const int height = std::uniform_int_distribution<int>(1, 40)(rng);
        const LaunchConfig c = test::random_launch(rng, width, height);
        const Dim3 g = resolved_grid(c, width, height);
        const Dim3 b{std::uniform_int_distribution<int>(0, g.x - 1)(rng),
                     std::uniform_int_distribution<int>(0, g.y - 1)(rng), 0};
        std::vector<int> inside(std::size_t(width) * height, 0);
        for (const PixelRect& r : block_pixel_rects(c, g, width, height, b, 100000))
            for (int y = r.y; y < r.y + r.h; ++y)
                for (int x = r.x; x < r.x + r.w; ++x) ++inside[std::size_t(y) * width + x];
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const PixelWriter w = thread_of_pixel(c, g, width, height, x, y);
                const int want = w.covered && w.block_idx == b ? 1 : 0;
                ASSERT_EQ(inside[std::size_t(y) * width + x], want)
                    << x << "," << y << " " << describe(c, g, width, height);
            }
    }
}

// Each block's outline encloses exactly its pixel count (shoelace area), for every mapping.
TEST(InverseMapping, BlockOutlinesEncloseTheBlocksPixels) {
    std::mt19937 rng(11);
    for (int round = 0; round < 200; ++round) {
        const int width = std::uniform_int_distribution<int>(1, 60)(rng);
        const int height = std::uniform_int_distribution<int>(1, 40)(rng);
        const LaunchConfig c = test::random_launch(rng, width, height);
        const Dim3 g = resolved_grid(c, width, height);
        const Dim3 b{std::uniform_int_distribution<int>(0, g.x - 1)(rng),
                     std::uniform_int_distribution<int>(0, g.y - 1)(rng), 0};
        long long area2 = 0; // twice the enclosed area
        for (const Outline& o : block_outlines(c, g, width, height, b, 100000))
            for (std::size_t i = 0; i < o.size(); ++i) {
                const PixelPoint p = o[i], q = o[(i + 1) % o.size()];
                area2 += 1LL * p.x * q.y - 1LL * q.x * p.y;
            }
        long long pixels = 0;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const PixelWriter w = thread_of_pixel(c, g, width, height, x, y);
                pixels += w.covered && w.block_idx == b;
            }
        ASSERT_EQ(area2, 2 * pixels) << describe(c, g, width, height) << " block " << to_string(b);
    }
}

// Coverage from the formulas equals a brute-force count, and the emulator's own write counters.
TEST(Coverage, FormulaCountsEqualBruteForceAndEmulatorCounts) {
    std::mt19937 rng(1234);
    for (int round = 0; round < 120; ++round) {
        const int width = std::uniform_int_distribution<int>(1, 80)(rng);
        const int height = std::uniform_int_distribution<int>(1, 50)(rng);
        PaintJob job;
        job.params.width = width, job.params.height = height;
        job.launch = test::random_launch(rng, width, height);
        if (round % 4 == 0) job.launch.block.z = 2;
        if (round % 6 == 0) job.launch.grid.z = 3, job.launch.auto_grid = false;
        const Dim3 g = resolved_grid(job.launch, width, height);
        const Coverage cov = coverage(job.launch, width, height);
        const std::vector<int> brute = test::writes_per_pixel(job.launch, g, width, height);
        long long covered = 0, repeated = 0, multi = 0;
        for (int n : brute) covered += n > 0, repeated += n > 1 ? n - 1 : 0, multi += n > 1;
        const std::string what = describe(job.launch, g, width, height);
        EXPECT_EQ(cov.threads, job.launch.block.count() * g.count()) << what;
        EXPECT_EQ(cov.pixels, 1LL * width * height) << what;
        EXPECT_EQ(cov.covered_pixels, covered) << what;
        EXPECT_EQ(cov.repeated_writes, repeated) << what;
        EXPECT_EQ(cov.multi_written_pixels, multi) << what;
        long long owning = 0; // threads with at least one write (a thread's writes come one after another)
        test::Thread last{-1, -1, -1, -1, -1, -1};
        test::for_each_write(job.launch, g, width, height, [&](const test::Thread& t, long long) {
            const bool same = t.bx == last.bx && t.by == last.by && t.bz == last.bz && t.tx == last.tx &&
                              t.ty == last.ty && t.tz == last.tz;
            owning += !same, last = t;
        });
        EXPECT_EQ(cov.idle_threads, cov.threads - owning) << what;

        std::vector<unsigned> counted(brute.size(), 0);
        emulate(job, PixelRecord{nullptr, counted.data()});
        for (std::size_t i = 0; i < brute.size(); ++i)
            ASSERT_EQ(int(counted[i]), brute[i]) << "pixel " << i << " " << what;

        const auto rects = covered_rects(job.launch, g, width, height);
        long long in_rects = 0;
        for (const PixelRect& r : rects) in_rects += 1LL * r.w * r.h;
        EXPECT_EQ(in_rects, covered) << what;
    }
}

// Columns, the uncoalesced twin of 2d: on small odd sizes, the inverse mapping names the thread the
// reference says writes each pixel, and a hand-set grid too small leaves exactly the reference's
// uncovered pixels hatched.
TEST(Columns, InverseAgreesWithTheReferenceForEveryPixel) {
    for (auto [w, h] : {std::pair{1, 1}, {3, 5}, {7, 3}, {33, 17}, {31, 65}, {45, 9}})
        for (const Dim3 block : {Dim3{32, 1, 1}, Dim3{1, 32, 1}, Dim3{5, 3, 1}, Dim3{7, 7, 1}, Dim3{3, 11, 1}})
            for (const bool auto_grid : {true, false}) {
                const LaunchConfig c{
                    .block = block, .grid = {2, 3, 1}, .auto_grid = auto_grid, .mapping = Mapping::Columns};
                const Dim3 g = resolved_grid(c, w, h);
                std::vector<std::vector<Thread>> writers(std::size_t(w) * h);
                test::for_each_write(c, g, w, h,
                                     [&](const Thread& t, long long i) { writers[std::size_t(i)].push_back(t); });
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        const auto& all = writers[std::size_t(y) * w + x];
                        const PixelWriter wr = thread_of_pixel(c, g, w, h, x, y);
                        const std::string what = fmt::format("({},{}) {}", x, y, describe(c, g, w, h));
                        ASSERT_EQ(wr.covered, !all.empty()) << what;
                        if (all.empty()) continue;
                        ASSERT_EQ(all.size(), 1u) << what;
                        const Thread& t = all.front();
                        ASSERT_EQ(wr.block_idx, (Dim3{t.bx, t.by, 0})) << what;
                        ASSERT_EQ(wr.thread_idx, (Dim3{t.tx, t.ty, 0})) << what;
                        ASSERT_EQ(wr.thread_in_block, t.ty * block.x + t.tx) << what;
                        ASSERT_EQ(wr.block_in_launch, 1LL * t.by * g.x + t.bx) << what;
                    }
            }
}

TEST(Columns, TooSmallGridLeavesExactlyTheReferencesPixelsUncovered) {
    std::mt19937 rng(2718);
    for (int round = 0; round < 60; ++round) {
        PaintJob job;
        job.params.width = std::uniform_int_distribution<int>(1, 90)(rng);
        job.params.height = std::uniform_int_distribution<int>(1, 70)(rng);
        job.launch = {
            .block = {std::uniform_int_distribution<int>(1, 40)(rng), std::uniform_int_distribution<int>(1, 12)(rng),
                      1},
            .grid = {std::uniform_int_distribution<int>(1, 5)(rng), std::uniform_int_distribution<int>(1, 5)(rng), 1},
            .auto_grid = false,
            .mapping = Mapping::Columns};
        job.view = round % 2 ? View::Pixels : View::Block;
        const int w = job.params.width, h = job.params.height;
        const Dim3 g = job.launch.grid;
        const auto out = emulate(job);
        std::vector<bool> written(out.size(), false);
        test::for_each_write(job.launch, g, w, h, [&](const Thread&, long long i) { written[std::size_t(i)] = true; });
        long long covered = 0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const std::size_t i = std::size_t(y) * w + x;
                covered += written[i];
                ASSERT_EQ(out[i] == uncovered_pixel(x, y), !written[i])
                    << x << "," << y << " " << describe(job.launch, g, w, h);
                ASSERT_FALSE(out[i] == kPoison);
            }
        EXPECT_EQ(coverage(job.launch, w, h).covered_pixels, covered) << describe(job.launch, g, w, h);
        long long in_rects = 0;
        for (const PixelRect& r : covered_rects(job.launch, g, w, h)) in_rects += 1LL * r.w * r.h;
        EXPECT_EQ(in_rects, covered);
    }
}

// A columns block is blockDim.y pixels wide and blockDim.x tall, placed by (blockIdx.y, blockIdx.x).
TEST(Columns, BlockRectIsTheTransposedTile) {
    const LaunchConfig c{.block = {8, 4, 1}, .mapping = Mapping::Columns};
    const Dim3 g = resolved_grid(c, 30, 20); // 3 blocks down (grid.x), 8 across (grid.y)
    EXPECT_EQ(g, (Dim3{3, 8, 1}));
    EXPECT_EQ(block_pixel_rects(c, g, 30, 20, {1, 2, 0}), (std::vector<PixelRect>{{8, 8, 4, 8}}));
    EXPECT_EQ(block_pixel_rects(c, g, 30, 20, {2, 7, 0}), (std::vector<PixelRect>{{28, 16, 2, 4}})); // clipped
}

TEST(Columns, FormulaShowsTheStrideBetweenLanes) {
    const LaunchConfig c{.block = {32, 8, 1}, .mapping = Mapping::Columns};
    const std::string f = mapping_formula(c, resolved_grid(c, 800, 600), 800, 600);
    EXPECT_NE(f.find("y = blockIdx.x*32 + threadIdx.x"), std::string::npos) << f;
    EXPECT_NE(f.find("x = blockIdx.y*8 + threadIdx.y"), std::string::npos) << f;
    EXPECT_NE(f.find("lane k+1 stores 800 pixels (3200 bytes) after lane k"), std::string::npos) << f;
}

// The coalescing figure the panel shows: how many 128-byte lines warp 0's store touches.
TEST(Columns, WarpStoresTouchOneLinePerLane) {
    auto stores = [](Mapping m, Dim3 block, int ppt = 1) {
        return first_warp_stores({.block = block, .mapping = m, .pixels_per_thread = ppt}, 800, 600);
    };
    const WarpStores columns = stores(Mapping::Columns, {32, 8, 1});
    EXPECT_EQ(columns.lanes, 32);
    EXPECT_EQ(columns.rows, 32);
    EXPECT_EQ(columns.cache_lines, 32);
    EXPECT_EQ(columns.ideal_lines, 1);
    const WarpStores two_d = stores(Mapping::TwoD, {32, 8, 1});
    EXPECT_EQ(two_d.rows, 1);
    EXPECT_EQ(two_d.cache_lines, 1);
    // The block shape is the other half of the lesson: 1x32 puts a columns warp back along a row,
    // and a 2d warp down a column.
    EXPECT_EQ(stores(Mapping::Columns, {1, 32, 1}).cache_lines, 1);
    EXPECT_EQ(stores(Mapping::TwoD, {1, 32, 1}).cache_lines, 32);
    EXPECT_EQ(stores(Mapping::Columns, {8, 4, 1}).cache_lines, 8);  // 4 neighbours in each of 8 rows
    EXPECT_EQ(stores(Mapping::TwoD, {32, 8, 1}, 4).cache_lines, 4); // 512 bytes of 16-byte stores
    EXPECT_EQ(stores(Mapping::Linear, {50, 20, 1}).cache_lines, 1);
    // 32-byte sectors: 128 contiguous bytes are 4; 32 lanes down a column, one each.
    EXPECT_EQ(two_d.sectors, 4);
    EXPECT_EQ(columns.sectors, 32);
    EXPECT_EQ(stores(Mapping::TwoD, {8, 4, 1}).sectors, 4); // 32 bytes in each of 4 rows
    EXPECT_EQ(stores(Mapping::TwoD, {32, 8, 1}, 4).sectors, 16);
    EXPECT_EQ(first_warp_stores({.block = {32, 8, 1}, .mapping = Mapping::Columns}, 5, 3).lanes, 3); // a 3-row canvas
}

TEST(Coverage, SmRecordNamesAWorker) {
    PaintJob job;
    job.params.width = 64, job.params.height = 64;
    std::vector<unsigned> sm(64 * 64, 999);
    emulate(job, PixelRecord{sm.data(), nullptr}, 3);
    for (unsigned s : sm) ASSERT_LT(s, 3u);
}

TEST(StepMode, OnlyTheFirstBlocksInLaunchOrderPaint) {
    for (Mapping m : {Mapping::TwoD, Mapping::Columns}) { // columns: launch order walks down first
        PaintJob job;
        job.params.width = 40, job.params.height = 30;
        job.launch = {.block = {8, 8, 1}, .mapping = m};
        job.view = View::Block;
        const Dim3 g = resolved_grid(job.launch, 40, 30); // 5x4 blocks (4x5 for columns)
        for (long long limit : {0LL, 1LL, 7LL, 19LL, 20LL, 100LL}) {
            job.max_blocks = limit;
            const auto out = emulate(job);
            for (int y = 0; y < 30; ++y)
                for (int x = 0; x < 40; ++x) {
                    const PixelWriter w = thread_of_pixel(job.launch, g, 40, 30, x, y);
                    const bool painted = w.block_in_launch < limit;
                    ASSERT_EQ(out[std::size_t(y) * 40 + x] == uncovered_pixel(x, y), !painted)
                        << mapping_name(m) << " " << limit << " " << x << "," << y;
                }
        }
    }
}

TEST(LaunchFigures, WarpsAndIdleLanes) {
    const WarpFigures tutorial = warp_figures({50, 20, 1});
    EXPECT_EQ(tutorial.threads_per_block, 1000);
    EXPECT_EQ(tutorial.warps_per_block, 32);
    EXPECT_EQ(tutorial.idle_lanes_last_warp, 24);
    EXPECT_EQ(warp_figures({32, 8, 1}).idle_lanes_last_warp, 0);
    EXPECT_EQ(warp_figures({1, 1, 1}).idle_lanes_last_warp, 31);
}

TEST(LaunchFigures, WavesAndTail) {
    // H200-like: 132 SMs, 2048 threads per SM; tutorial blocks of 1000 threads, 2 resident per SM.
    const OccupancyFigures o = occupancy_figures({50, 20, 1}, {80, 8, 1}, 2, 132, 2048);
    EXPECT_EQ(o.blocks, 640);
    EXPECT_EQ(o.blocks_per_wave, 264);
    EXPECT_EQ(o.full_waves, 2);
    EXPECT_EQ(o.tail_blocks, 112);
    EXPECT_EQ(o.waves(), 3);
    EXPECT_DOUBLE_EQ(o.occupancy, 64.0 / 64.0);
    const OccupancyFigures none = occupancy_figures({32, 8, 1}, {4, 1, 1}, 0, 132, 2048);
    EXPECT_EQ(none.waves(), 0);
}

} // namespace
} // namespace kc
