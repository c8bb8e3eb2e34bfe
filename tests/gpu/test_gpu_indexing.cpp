// The indexing views, coverage counts and occupancy figures on a real CUDA device. Skips, saying
// why, where no device is usable; compiles everywhere the CUDA toolkit is.
#include <gtest/gtest.h>

#include <random>

#include "gpu/cpu_emulator.h"
#include "gpu/cuda_device.h"
#include "gpu/cuda_paint.h"
#include "gpu/cuda_raii.h"
#include "gpu/launch_figures.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "tests/support/gpu_test.h"
#include "tests/support/indexing_reference.h"
#include "tests/support/op_expectations.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

using test::kPoison;

class GpuIndexing : public test::GpuTest {
protected:
    // Paints `job` on the device over a poisoned buffer; returns the pixels and, if asked, the
    // per-pixel write counts and SM numbers.
    std::vector<Pixel> paint(const PaintJob& job, std::vector<unsigned>* writes = nullptr,
                             std::vector<unsigned>* sms = nullptr) {
        const std::size_t n = std::size_t(job.params.width) * job.params.height;
        DeviceBuffer<unsigned> write_counts(writes ? n : 0), sm_ids(sms ? n : 0);
        cudaStream_t s = stream_.get();
        if (writes) KC_CUDA_CHECK_THROW(cudaMemsetAsync(write_counts.data(), 0, write_counts.bytes(), s));
        if (sms) KC_CUDA_CHECK_THROW(cudaMemsetAsync(sm_ids.data(), 0xFF, sm_ids.bytes(), s));
        std::vector<Pixel> host =
            paint_poisoned(job, PixelRecord{sms ? sm_ids.data() : nullptr, writes ? write_counts.data() : nullptr});
        if (writes) {
            writes->resize(n);
            KC_CUDA_CHECK_THROW(
                cudaMemcpy(writes->data(), write_counts.data(), write_counts.bytes(), cudaMemcpyDeviceToHost));
        }
        if (sms) {
            sms->resize(n);
            KC_CUDA_CHECK_THROW(cudaMemcpy(sms->data(), sm_ids.data(), sm_ids.bytes(), cudaMemcpyDeviceToHost));
        }
        return host;
    }
};

// Every view except sm must equal the CPU emulator's picture (which test_indexing checks against
// the reference), pixel for pixel, for random launches of every mapping.
TEST_F(GpuIndexing, ViewsEqualTheEmulatorForRandomLaunches) {
    std::mt19937 rng(42);
    for (int round = 0; round < 40; ++round) {
        PaintJob job;
        job.params.width = std::uniform_int_distribution<int>(1, 300)(rng);
        job.params.height = std::uniform_int_distribution<int>(1, 200)(rng);
        job.launch = test::random_launch(rng, job.params.width, job.params.height);
        for (View v : {View::Pixels, View::Block, View::Thread, View::Warp, View::Lane, View::Linear}) {
            job.view = v;
            const auto gpu = paint(job);
            std::vector<Pixel> cpu(gpu.size(), kPoison);
            ASSERT_FALSE(CpuGridEmulator(2).paint(job, cpu.data()));
            for (std::size_t i = 0; i < gpu.size(); ++i)
                ASSERT_EQ(gpu[i], cpu[i]) << view_name(v) << " pixel " << i << " " << mapping_name(job.launch.mapping)
                                          << " block " << to_string(job.launch.block);
        }
    }
}

// The columns mapping on the device, against the CPU references directly (not the emulator): the
// generator ops' pixels, and the block and warp views coloured by the thread the reference names.
TEST_F(GpuIndexing, ColumnsMatchesTheReference) {
    std::mt19937 rng(1717);
    for (int round = 0; round < 30; ++round) {
        PaintJob job;
        job.op = ref::generator_ops()[rng() % 3];
        job.params.width = std::uniform_int_distribution<int>(1, 400)(rng);
        job.params.height = std::uniform_int_distribution<int>(1, 300)(rng);
        job.params.cell = std::uniform_int_distribution<int>(1, 40)(rng);
        job.launch = {.block = {std::uniform_int_distribution<int>(1, 64)(rng),
                                std::uniform_int_distribution<int>(1, 16)(rng), 1},
                      .mapping = Mapping::Columns};
        if (round % 3 == 0)
            job.launch.auto_grid = false, job.launch.grid = {std::uniform_int_distribution<int>(1, 9)(rng),
                                                             std::uniform_int_distribution<int>(1, 9)(rng), 1};
        const int w = job.params.width, h = job.params.height;
        const Dim3 g = resolved_grid(job.launch, w, h);
        const LaunchConfig& c = job.launch;
        job.view = View::Pixels;
        ASSERT_TRUE(ref::matches_reference(job, paint(job)));
        for (View v : {View::Block, View::Warp}) {
            job.view = v;
            const auto out = paint(job);
            std::vector<Pixel> want(out.size());
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) want[std::size_t(y) * w + x] = uncovered_pixel(x, y);
            test::for_each_write(c, g, w, h, [&](const test::Thread& t, long long i) {
                const ThreadCoords tc{unsigned(t.bx),      unsigned(t.by),      0, unsigned(t.tx), unsigned(t.ty), 0,
                                      unsigned(c.block.x), unsigned(c.block.y), 1, unsigned(g.x),  unsigned(g.y),  1};
                want[std::size_t(i)] = v == View::Block ? block_colour(tc, Mapping::Columns, unsigned(w))
                                                        : warp_colour(unsigned(t.ty * c.block.x + t.tx) / 32);
            });
            for (std::size_t i = 0; i < out.size(); ++i)
                ASSERT_EQ(out[i], want[i]) << view_name(v) << " pixel (" << i % w << "," << i / w << ") block "
                                           << to_string(c.block) << " grid " << to_string(g) << " on " << w << "x" << h;
        }
    }
}

TEST_F(GpuIndexing, TutorialBlocksPaintTheirThousandPixels) {
    PaintJob job;
    job.launch = tutorial_preset();
    job.view = View::Block;
    const auto out = paint(job);
    for (int b = 0; b < 640; ++b) {
        ThreadCoords t{unsigned(b % 80), unsigned(b / 80), 0, 0, 0, 0, 50, 20, 1, 80, 8, 1};
        const Pixel want = block_colour(t, Mapping::Linear, 800);
        for (int i = 1000 * b; i < 1000 * b + 1000; ++i) ASSERT_EQ(out[std::size_t(i)], want) << "block " << b;
    }
}

TEST_F(GpuIndexing, WriteCountsEqualCoverage) {
    std::mt19937 rng(3);
    for (int round = 0; round < 40; ++round) {
        PaintJob job;
        job.params.width = std::uniform_int_distribution<int>(1, 200)(rng);
        job.params.height = std::uniform_int_distribution<int>(1, 150)(rng);
        job.launch = test::random_launch(rng, job.params.width, job.params.height);
        if (round % 3 == 0) job.launch.block.z = 2;
        std::vector<unsigned> writes;
        const auto out = paint(job, &writes);
        const Dim3 g = resolved_grid(job.launch, job.params.width, job.params.height);
        const auto brute = test::writes_per_pixel(job.launch, g, job.params.width, job.params.height);
        const Coverage cov = coverage(job.launch, job.params.width, job.params.height);
        long long covered = 0, repeated = 0;
        for (std::size_t i = 0; i < brute.size(); ++i) {
            ASSERT_EQ(int(writes[i]), brute[i]) << "pixel " << i;
            ASSERT_FALSE(out[i] == kPoison) << "pixel " << i << " was never written (not even hatched)";
            covered += writes[i] > 0, repeated += writes[i] > 1 ? writes[i] - 1 : 0;
        }
        EXPECT_EQ(cov.covered_pixels, covered);
        EXPECT_EQ(cov.repeated_writes, repeated);
    }
}

TEST_F(GpuIndexing, SmRecordAgreesWithSmView) {
    PaintJob job;
    job.params.width = 512, job.params.height = 512;
    job.view = View::Sm;
    std::vector<unsigned> sms;
    const auto out = paint(job, nullptr, &sms);
    for (std::size_t i = 0; i < out.size(); ++i) {
        ASSERT_LT(sms[i], unsigned(info_.sm_count) * 2) << "pixel " << i; // smid may exceed the count slightly
        ThreadCoords t{};
        ASSERT_EQ(out[i], view_colour(View::Sm, t, sms[i])) << "pixel " << i;
    }
}

TEST_F(GpuIndexing, StepModePaintsOnlyTheFirstBlocks) {
    PaintJob job;
    job.params.width = 96, job.params.height = 64;
    job.launch = {.block = {16, 16, 1}, .mapping = Mapping::TwoD};
    job.view = View::Block;
    job.max_blocks = 7;
    const auto out = paint(job);
    const Dim3 g = resolved_grid(job.launch, 96, 64);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x) {
            const bool painted = thread_of_pixel(job.launch, g, 96, 64, x, y).block_in_launch < 7;
            ASSERT_EQ(out[std::size_t(y) * 96 + x] == uncovered_pixel(x, y), !painted) << x << "," << y;
        }
}

TEST_F(GpuIndexing, OccupancyFiguresEqualTheOccupancyApi) {
    for (const Dim3 block : {Dim3{32, 8, 1}, Dim3{50, 20, 1}, Dim3{16, 16, 1}, Dim3{1024, 1, 1}, Dim3{7, 3, 1}}) {
        const int threads = static_cast<int>(block.count());
        for (const OpInfo& op : op_registry()) {
            if (op.custom) continue;    // their own kernels with fixed blocks: the panel's launch does not apply
            if (op.user_code) continue; // compiled at run time: test_user_kernel covers it
            const int from_api = cuda_max_active_blocks_per_sm(op.index, threads);
            const OccupancyFigures o = cuda_occupancy(info_, op.index, block, {80, 8, 1});
            const std::string what = std::string(op.name) + " block " + to_string(block);
            EXPECT_GT(from_api, 0) << what;
            EXPECT_EQ(o.blocks_per_sm, from_api) << what;
            EXPECT_EQ(o.blocks_per_wave, 1LL * from_api * info_.sm_count) << what;
            const long long warps = (threads + info_.warp_size - 1) / info_.warp_size;
            EXPECT_DOUBLE_EQ(o.occupancy, double(from_api * warps) / (info_.max_threads_per_sm / info_.warp_size))
                << what;
            // Residency never exceeds what the thread limit alone allows.
            EXPECT_LE(1LL * from_api * threads, info_.max_threads_per_sm) << what;
            EXPECT_LE(o.occupancy, 1.0) << what;
        }
    }
}

} // namespace
} // namespace kc
