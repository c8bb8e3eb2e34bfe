// The SM timeline on the CPU backend: the emulator's record of every block (its worker, start and
// end), the waves and tail read from a recording against the occupancy model, the start view's
// colours and the Chrome-trace export. What only a GPU shows (SMs holding several blocks at once,
// the hardware's dispatch order) is in tests/gpu/test_gpu_timeline.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "gpu/block_timeline.h"
#include "gpu/cpu_emulator.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "tests/support/poison.h"

namespace kc {
namespace {

struct Recorded {
    BlockTimeline timeline;
    std::vector<Pixel> pixels;
};

Recorded record(const PaintJob& job, unsigned workers) {
    const ResolvedLaunch r = resolve_launch(job, universal_limits());
    EXPECT_EQ(r.refusal, std::nullopt) << r.refusal.value_or("");
    Recorded out;
    out.timeline.source = TimelineSource::CpuWorkers;
    out.timeline.block = job.launch.block, out.timeline.grid = r.grid;
    BlockTime poison;
    poison.start = 77, poison.end = 11, poison.sm = 999, poison.ran = 0; // end < start: caught if left
    out.timeline.blocks.assign(static_cast<std::size_t>(r.grid.count()), poison);
    out.pixels.assign(std::size_t(job.params.width) * job.params.height, test::kPoison);
    PixelRecord rec;
    rec.blocks = out.timeline.blocks.data();
    const auto error = CpuGridEmulator(workers).paint(job, r, out.pixels.data(), nullptr, rec);
    EXPECT_EQ(error, std::nullopt) << error.value_or("");
    return out;
}

PaintJob random_job(std::mt19937& rng) {
    static constexpr Mapping kMappings[] = {Mapping::TwoD, Mapping::Linear, Mapping::GridStride, Mapping::Columns};
    PaintJob job;
    job.op = find_op("gradient")->index;
    job.params.width = 1 + int(rng() % 120), job.params.height = 1 + int(rng() % 90);
    job.launch = {.block = {1 + int(rng() % 40), 1 + int(rng() % 12), 1}, .mapping = kMappings[rng() % 4]};
    if (rng() % 3 == 0) // a hand-set grid, often past the canvas: those blocks run (and return) too
        job.launch.auto_grid = false, job.launch.grid = {1 + int(rng() % 30), 1 + int(rng() % 20), 1 + int(rng() % 2)};
    return job;
}

TEST(CpuTimeline, EveryBlockOfTheGridOnceWithOneWorkerAndStartBeforeEnd) {
    std::mt19937 rng(2929);
    for (int round = 0; round < 60; ++round) {
        const PaintJob job = random_job(rng);
        const unsigned workers = 1 + rng() % 3;
        const Recorded r = record(job, workers);
        const auto& blocks = r.timeline.blocks;
        ASSERT_EQ(blocks.size(), std::size_t(r.timeline.grid.count()));
        std::map<unsigned, std::vector<BlockTime>> by_worker;
        for (std::size_t n = 0; n < blocks.size(); ++n) {
            ASSERT_EQ(blocks[n].ran, 1u) << block_label(r.timeline.grid, long(n)) << " never ran, round " << round;
            ASSERT_LE(blocks[n].start, blocks[n].end) << block_label(r.timeline.grid, long(n));
            ASSERT_LT(blocks[n].sm, workers) << "a worker the emulator does not have";
            by_worker[blocks[n].sm].push_back(blocks[n]);
        }
        // A worker runs one block at a time: its blocks' intervals never overlap.
        for (auto& [worker, list] : by_worker) {
            std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.start < b.start; });
            for (std::size_t i = 1; i < list.size(); ++i)
                ASSERT_LE(list[i - 1].end, list[i].start) << "worker " << worker << " ran two blocks at once";
        }
    }
}

TEST(CpuTimeline, StepModeRecordsOnlyTheBlocksThatRan) {
    PaintJob job;
    job.params.width = 64, job.params.height = 64;
    job.launch = {.block = {16, 16, 1}};
    job.max_blocks = 5;
    const Recorded r = record(job, 2);
    for (std::size_t n = 0; n < r.timeline.blocks.size(); ++n) EXPECT_EQ(r.timeline.blocks[n].ran, n < 5 ? 1u : 0u);
    EXPECT_EQ(timeline_waves(r.timeline).blocks, 5);
}

// One worker runs the blocks one after another: every block is a wave of its own, as the
// emulator's occupancy model (one block per worker) says. Exact, whatever the machine's load.
TEST(CpuTimeline, OneWorkerMakesOneBlockWaves) {
    for (const Dim3 block : {Dim3{32, 8, 1}, Dim3{50, 20, 1}, Dim3{16, 16, 1}}) {
        PaintJob job;
        job.params.width = 200, job.params.height = 160;
        job.launch = {.block = block};
        const Recorded r = record(job, 1);
        const TimelineWaves w = timeline_waves(r.timeline);
        const OccupancyFigures model = cpu_worker_occupancy(block, r.timeline.grid, 1);
        EXPECT_EQ(w.first_wave, model.blocks_per_wave) << to_string(block);
        EXPECT_EQ(w.waves, model.waves()) << to_string(block);
        EXPECT_EQ(w.tail_blocks, model.tail_blocks) << to_string(block);
        EXPECT_EQ(timeline_rows(r.timeline), std::vector<unsigned>{0});
    }
}

// With several workers no more blocks can start before the first ends than there are workers; how
// many do depends on when the OS starts the threads (a loaded machine starts some late), so the
// model's exact wave count is the GPU test's to check.
TEST(CpuTimeline, SeveralWorkersNeverRunMoreBlocksAtOnceThanTheyAre) {
    PaintJob job;
    job.params.width = 300, job.params.height = 200;
    job.launch = {.block = {16, 8, 1}};
    for (unsigned workers : {2u, 3u, 5u}) {
        const Recorded r = record(job, workers);
        const TimelineWaves w = timeline_waves(r.timeline);
        const OccupancyFigures model = cpu_worker_occupancy(job.launch.block, r.timeline.grid, int(workers));
        EXPECT_GE(w.first_wave, 1);
        EXPECT_LE(w.first_wave, model.blocks_per_wave);
        EXPECT_GE(w.waves, model.waves());
        EXPECT_LE(timeline_rows(r.timeline).size(), workers);
    }
}

// A GPU-like dispatcher, simulated: `slots` = blocks per SM x SMs, each block to the slot that
// frees first, in launch order, for a duration of 1 +- `jitter`. SM ids are odd numbers (not
// contiguous, as %smid need not be).
BlockTimeline simulated(const OccupancyFigures& model, const Dim3& block, const Dim3& grid, int sms, double jitter,
                        unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(1.0 - jitter, 1.0 + jitter);
    BlockTimeline t;
    t.block = block, t.grid = grid;
    std::vector<double> free_at(std::size_t(model.blocks_per_wave), 0.0);
    for (long long n = 0; n < grid.count(); ++n) {
        const auto slot = std::min_element(free_at.begin(), free_at.end()) - free_at.begin();
        const double start = free_at[std::size_t(slot)], end = start + d(rng);
        free_at[std::size_t(slot)] = end;
        t.blocks.push_back(BlockTime{static_cast<unsigned long long>(start * 1e6),
                                     static_cast<unsigned long long>(end * 1e6), unsigned(slot % sms) * 2 + 1, 1});
    }
    return t;
}

// The tail from a recording's starts (waves of "blocks that started before the first ended")
// against the occupancy model's waves, for three block shapes on an H200-like device (132 SMs,
// 2048 threads each, at most 32 blocks).
TEST(CpuTimeline, TailFromRecordedStartsMatchesTheOccupancyModel) {
    constexpr int kSms = 132;
    for (const Dim3 block : {Dim3{32, 8, 1}, Dim3{50, 20, 1}, Dim3{8, 8, 1}}) {
        PaintJob job;
        job.launch = {.block = block}; // 800x800, auto grid
        const Dim3 grid = resolve_launch(job, universal_limits()).grid;
        const int threads = int(warp_figures(block).warps_per_block * 32);
        const OccupancyFigures model = occupancy_figures(block, grid, std::min(32, 2048 / threads), kSms, 2048);
        ASSERT_GT(model.tail_blocks, 0) << "pick shapes whose last wave is partial";
        for (unsigned seed : {1u, 2u, 3u}) {
            const BlockTimeline t = simulated(model, block, grid, kSms, 0.2, seed);
            const TimelineWaves w = timeline_waves(t);
            EXPECT_EQ(w.first_wave, model.blocks_per_wave) << to_string(block);
            EXPECT_EQ(w.waves, model.waves()) << to_string(block);
            EXPECT_EQ(w.tail_blocks, model.tail_blocks) << to_string(block);
            EXPECT_EQ(timeline_rows(t).size(), std::size_t(kSms));
        }
        // Equal durations: the tail's blocks land on the first SMs, one each, and the rest idle.
        const TimelineWaves even = timeline_waves(simulated(model, block, grid, kSms, 0.0, 0));
        EXPECT_EQ(even.idle_in_tail.size(), std::size_t(std::max<long long>(0, kSms - model.tail_blocks)))
            << to_string(block);
    }
}

// The start view: each pixel the ramp's colour of its block's start (block found by the
// inspector's inverse mapping, not the kernel's), uncovered pixels hatched.
TEST(CpuTimeline, StartViewColoursEachPixelByItsBlocksStart) {
    for (const Mapping m : {Mapping::TwoD, Mapping::Linear, Mapping::Columns}) {
        PaintJob job;
        job.params.width = 90, job.params.height = 70;
        job.launch = {.block = {16, 4, 1}, .grid = {4, 5, 1}, .auto_grid = false, .mapping = m}; // leaves pixels
        job.view = View::Start;
        const Recorded r = record(job, 2);
        unsigned long long first = ~0ULL, last = 0;
        for (const BlockTime& b : r.timeline.blocks) first = std::min(first, b.start), last = std::max(last, b.start);
        for (int y = 0; y < job.params.height; ++y)
            for (int x = 0; x < job.params.width; ++x) {
                const PixelWriter w = thread_of_pixel(job.launch, r.timeline.grid, 90, 70, x, y);
                const Pixel want =
                    w.covered ? start_ramp_colour(
                                    float(double(r.timeline.blocks[std::size_t(w.block_in_launch)].start - first) /
                                          double(std::max(1ULL, last - first))))
                              : uncovered_pixel(x, y);
                ASSERT_EQ(r.pixels[std::size_t(y * 90 + x)], want) << "pixel " << x << "," << y;
            }
    }
}

TEST(CpuTimeline, ChromeTraceHasOneEventPerBlockOnItsWorkersRow) {
    PaintJob job;
    job.params.width = 100, job.params.height = 40;
    job.launch = {.block = {20, 10, 1}};
    Recorded r = record(job, 2);
    r.timeline.resolution_ns = steady_clock_step_ns();
    const nlohmann::json trace = nlohmann::json::parse(timeline_chrome_trace(r.timeline));
    int events = 0;
    std::vector<bool> seen(r.timeline.blocks.size());
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] != "X") continue;
        ++events;
        const std::string name = e["name"];
        int bx = -1, by = -1;
        ASSERT_EQ(std::sscanf(name.c_str(), "block (%d,%d)", &bx, &by), 2) << name;
        const std::size_t n = std::size_t(by * r.timeline.grid.x + bx);
        ASSERT_FALSE(seen[n]) << name << " twice";
        seen[n] = true;
        EXPECT_EQ(e["tid"], r.timeline.blocks[n].sm);
        EXPECT_GE(e["ts"].get<double>(), 0.0);
        EXPECT_GE(e["dur"].get<double>(), 0.0);
    }
    EXPECT_EQ(events, int(r.timeline.blocks.size()));
    EXPECT_EQ(trace["otherData"]["rows"], "cpu emulator workers");
    EXPECT_GT(trace["otherData"]["clock_resolution_ns"].get<double>(), 0.0);
}

TEST(CpuTimeline, SteadyClockStepIsMeasured) {
    const double step = steady_clock_step_ns();
    EXPECT_GT(step, 0.0);
    EXPECT_LT(step, 1e6) << "a clock that steps by a millisecond would make every block one tick";
}

} // namespace
} // namespace kc
