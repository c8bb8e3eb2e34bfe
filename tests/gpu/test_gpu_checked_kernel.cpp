// The user's kernel in checked mode on a real GPU: an index past the end is named with its thread
// and writes nothing, reads past the end give poison, the process stays healthy; every starter
// paints the same pixels checked and raw; the writer record names the thread the model names for
// the same launch; step mode paints exactly k blocks. Skipped, with the reason, without a CUDA GPU
// or NVRTC.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gpu/cuda_paint.h"
#include "gpu/kernel_check.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "gpu/user_kernel.h"
#include "tests/support/gpu_test.h"
#include "tests/support/run_process.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

Pixel gradient_at(int x, int y, int w, int h) {
    return Pixel{std::uint8_t(255 - 255 * y / h), std::uint8_t(255 - 255 * x / w), std::uint8_t(128 - 128 * y / h),
                 255};
}

constexpr Pixel kMagenta{255, 0, 255, 255}; // the checked views' poison (B, G, R, A)

// The gradient starter without its bounds check on y: a grid one block row too tall writes past the end.
constexpr const char* kNoRowCheck =
    "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {\n"
    "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (x >= width) return;\n"
    "    out[y * width + x] = make_pixel(128 - 128 * y / height, 255 - 255 * x / width, 255 - 255 * y / height);\n"
    "}\n";

class GpuCheckedKernel : public test::GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped()) return;
        if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << *why;
    }

    UserKernel compile(std::string_view source, KernelMode mode = KernelMode::Checked) {
        const KernelCompile k = compile_user_kernel(source, current_device_capability(), "test.cu", mode);
        EXPECT_TRUE(k.ok) << k.log;
        return UserKernel::load(k);
    }

    std::vector<Pixel> paint(const UserKernel& kernel, PaintJob job, PixelRecord record = {}) {
        job.op = find_op("user_kernel")->index;
        ws_.user_kernel = &kernel;
        return paint_poisoned(job, record);
    }

    KernelViolations violations() {
        KernelViolations v;
        KC_CUDA_CHECK_THROW(
            cudaMemcpyAsync(&v.first, ws_.violation.data(), sizeof v.first, cudaMemcpyDeviceToHost, stream_.get()));
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
        v.count = v.first.count, v.width = v.first.width, v.height = v.first.height;
        return v;
    }

    // Paints with a writer record; returns the record's words (and the pixels in `pixels`).
    std::vector<unsigned> paint_recorded(const UserKernel& kernel, const PaintJob& job, std::vector<Pixel>* pixels) {
        const std::size_t n = std::size_t(job.params.width) * job.params.height;
        DeviceBuffer<unsigned> words(n);
        const auto out = paint(kernel, job, PixelRecord{words.data(), nullptr});
        if (pixels) *pixels = out;
        std::vector<unsigned> host(n);
        KC_CUDA_CHECK_THROW(
            cudaMemcpyAsync(host.data(), words.data(), words.bytes(), cudaMemcpyDeviceToHost, stream_.get()));
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
        return host;
    }
};

PaintJob job_of(int w, int h, Dim3 block, std::optional<Dim3> grid = std::nullopt) {
    PaintJob job;
    job.params.width = w, job.params.height = h;
    job.launch.block = block;
    if (grid) job.launch.auto_grid = false, job.launch.grid = *grid;
    return job;
}

TEST_F(GpuCheckedKernel, OneBlockRowPastTheEndIsNamedAndEveryPixelStaysRight) {
    const UserKernel kernel = compile(kNoRowCheck);
    const PaintJob job = job_of(800, 800, {32, 8, 1}, Dim3{25, 101, 1}); // one block row too many
    const auto out = paint(kernel, job);
    for (int y = 0; y < 800; ++y)
        for (int x = 0; x < 800; ++x)
            ASSERT_EQ(out[std::size_t(y) * 800 + x], gradient_at(x, y, 800, 800)) << x << "," << y;
    const KernelViolations v = violations();
    EXPECT_EQ(v.count, 25u * 256u); // every thread of the extra row
    EXPECT_EQ(v.first.write, 1);
    // The earliest thread in launch order of the extra row: thread (0,0) of block (0,100).
    EXPECT_EQ(v.first.block[0], 0u);
    EXPECT_EQ(v.first.block[1], 100u);
    EXPECT_EQ(v.first.thread[0], 0u);
    EXPECT_EQ(v.first.thread[1], 0u);
    EXPECT_EQ(v.first.index, 640000);
    const std::string text = describe(v);
    EXPECT_NE(text.find("past the end (800x800 = 640000 pixels); its y = blockIdx.y*blockDim.y + threadIdx.y = "),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(">= height 800"), std::string::npos) << text;

    // The process is healthy: the same kernel paints again, and so does a built-in op.
    EXPECT_EQ(paint(kernel, job_of(64, 64, {32, 8, 1}))[64 * 63], gradient_at(0, 63, 64, 64));
    EXPECT_EQ(violations().count, 0u);
    PaintJob builtin = job_of(64, 64, {32, 8, 1});
    builtin.op = find_op("invert")->index;
    paint_poisoned(builtin);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST_F(GpuCheckedKernel, ReadsPastTheEndGiveThePoisonColourAndAreNamed) {
    const UserKernel kernel =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                "    if (x >= width || y >= height) return;\n"
                "    const int i = y * width + x;\n"
                "    out[i] = i % 2 ? b[i + width * height] : load(a, -1 - i);\n"
                "}\n");
    const auto out = paint(kernel, job_of(96, 40, {32, 8, 1}));
    for (const Pixel& p : out) ASSERT_EQ(p, kMagenta);
    const KernelViolations v = violations();
    EXPECT_EQ(v.count, 96u * 40u);
    EXPECT_EQ(v.first.write, 0);
    EXPECT_EQ(describe(v).rfind("thread (0,0) of block (0,0) read a[-1]: before the start", 0), 0u) << describe(v);
}

// Block (0,0) dawdles before its bad writes while every other block makes its own: the named
// access is still thread (0,0)'s first, the earliest in launch order, not the first in time.
TEST_F(GpuCheckedKernel, TheNamedAccessIsTheEarliestThreadsFirstNotTheFirstInTime) {
    const UserKernel kernel =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y + threadIdx.y * "
                "blockDim.x + threadIdx.x;\n"
                "    if (blockIdx.x == 0 && blockIdx.y == 0) {\n"
                "        const long long start = clock64();\n"
                "        while (clock64() - start < 20000000) {}\n" // ~10 ms
                "    }\n"
                "    out[width * height + i] = make_pixel(1, 2, 3);\n"
                "    out[-1 - i] = make_pixel(1, 2, 3);\n"
                "}\n");
    paint(kernel, job_of(256, 256, {32, 8, 1}));
    const KernelViolations v = violations();
    EXPECT_EQ(v.count, 2u * 256 * 256);
    EXPECT_EQ(describe(v).rfind("thread (0,0) of block (0,0) wrote out[65536]: past the end", 0), 0u) << describe(v);
}

TEST_F(GpuCheckedKernel, EveryStarterPaintsTheSamePixelsCheckedRawAndRecorded) {
    for (const StarterKernel& s : starter_kernels()) {
        const UserKernel checked = compile(s.source, KernelMode::Checked);
        const UserKernel raw = compile(s.source, KernelMode::Raw);
        for (const PaintJob& job : {job_of(800, 600, {32, 8, 1}), job_of(800, 800, {50, 20, 1}, Dim3{80, 8, 1}),
                                    job_of(333, 217, {16, 16, 1})}) {
            const auto from_raw = paint(raw, job);
            EXPECT_EQ(paint(checked, job), from_raw) << s.name;
            std::vector<Pixel> recorded;
            paint_recorded(checked, job, &recorded);
            EXPECT_EQ(recorded, from_raw) << s.name << ": the pixels view with a writer record";
        }
    }
}

TEST_F(GpuCheckedKernel, TheRecordNamesTheThreadTheModelNamesForTheBuiltInGradient) {
    const UserKernel kernel = compile(default_starter().source);
    for (const PaintJob& job :
         {job_of(800, 600, {32, 8, 1}), job_of(333, 217, {50, 20, 1}), job_of(200, 100, {32, 8, 1}, Dim3{3, 2, 1})}) {
        const int w = job.params.width, h = job.params.height;
        const ResolvedLaunch resolved = resolve_launch(job, info_.limits);
        const auto words = paint_recorded(kernel, job, nullptr);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const PixelWriter model = thread_of_pixel(resolved.launch, resolved.grid, w, h, x, y);
                const RecordedWriter rec =
                    decode_writer(words[std::size_t(y) * w + x], job.launch.block, resolved.grid);
                ASSERT_EQ(rec.written, model.covered) << x << "," << y;
                if (!model.covered) continue;
                ASSERT_EQ(rec.writers, 1u);
                ASSERT_EQ(int(rec.thread.bx), model.block_idx.x) << x << "," << y;
                ASSERT_EQ(int(rec.thread.by), model.block_idx.y) << x << "," << y;
                ASSERT_EQ(int(rec.thread.tx), model.thread_idx.x) << x << "," << y;
                ASSERT_EQ(int(rec.thread.ty), model.thread_idx.y) << x << "," << y;
                ASSERT_EQ(rec.thread_in_block, unsigned(model.thread_in_block));
            }
        // The views from the record equal the built-in gradient's views of the same launch (SM aside:
        // which SM runs a block differs from launch to launch).
        for (View view : {View::Block, View::Thread, View::Warp, View::Lane, View::Linear}) {
            PaintJob user = job;
            user.view = view;
            const std::size_t n = std::size_t(w) * h;
            DeviceBuffer<unsigned> record(n);
            const auto from_record = paint(kernel, user, PixelRecord{record.data(), nullptr});
            PaintJob builtin = user;
            builtin.op = find_op("gradient")->index;
            EXPECT_EQ(from_record, paint_poisoned(builtin)) << view_name(view) << " " << w << "x" << h;
        }
    }
}

TEST_F(GpuCheckedKernel, StepModeAfterKBlocksPaintsExactlyThoseBlocks) {
    const UserKernel kernel = compile(default_starter().source);
    for (long long k : {0LL, 1LL, 7LL, 26LL}) {
        PaintJob job = job_of(100, 40, {32, 8, 1}); // grid 4x5
        job.max_blocks = k;
        const auto out = paint(kernel, job);
        long long painted = 0;
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 100; ++x) {
                const bool in_first_k = (y / 8) * 4 + x / 32 < k;
                ASSERT_EQ(out[std::size_t(y) * 100 + x],
                          in_first_k ? gradient_at(x, y, 100, 40) : uncovered_pixel(x, y))
                    << "k " << k << " at " << x << "," << y;
                painted += in_first_k;
            }
        long long expected = 0; // blocks of the last column hold 4 of their 32 columns
        for (long long b = 0; b < std::min(k, 20LL); ++b) expected += (b % 4 == 3 ? 4 : 32) * 8;
        EXPECT_EQ(painted, expected) << "k " << k;
    }
}

TEST_F(GpuCheckedKernel, TwoLanesOnOnePixelCountTwoWritersOneThreadTwiceCountsOne) {
    // Lanes 2k and 2k+1 both store pixel k once: two writers, the last one of them.
    const UserKernel pairs =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    const int i = (blockIdx.x * blockDim.x + threadIdx.x) / 2;\n"
                "    if (i < width * height) out[i] = make_pixel(200, 100, 0);\n"
                "}\n");
    const auto words = paint_recorded(pairs, job_of(64, 4, {64, 1, 1}, Dim3{8, 1, 1}), nullptr);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const RecordedWriter w = decode_writer(words[i], Dim3{64, 1, 1}, Dim3{8, 1, 1});
        ASSERT_TRUE(w.written) << i;
        EXPECT_EQ(w.writers, 2u) << i;
        EXPECT_EQ(w.thread_in_block / 2 + w.block_in_launch * 32, i);
    }
    // One thread writing its pixel channel by channel is one writer.
    const UserKernel channels =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= width * height) return;\n"
                "    out[i].r = 200;\n"
                "    out[i].g = 100;\n"
                "    store(out, i, load(out, i));\n"
                "}\n");
    const auto once = paint_recorded(channels, job_of(64, 4, {64, 1, 1}, Dim3{4, 1, 1}), nullptr);
    for (std::size_t i = 0; i < once.size(); ++i) ASSERT_EQ(once[i] >> 28, 1u) << i;
}

// The command line: the named access on stderr and in --json; exit 0, or 2 with --strict.
TEST_F(GpuCheckedKernel, HeadlessNamesTheAccessAndStrictExitsWith2) {
    const std::string dir = ::testing::TempDir() + "/kc_checked_kernel";
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/no_row_check.cu";
    std::ofstream(file) << kNoRowCheck;
    const std::string args = "--headless" + test::gpu_flag() +
                             "--frames 2 --size 800x800 --block 32x8 --grid 25x101 "
                             "--kernel " +
                             file;
    auto r = test::run(args + " --json");
    if (r.exit_code == 1 && r.output.find("cannot render headless") != std::string::npos)
        GTEST_SKIP() << "no headless EGL: " << r.output;
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("your kernel wrote out of range: thread ("), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"count\": 6400"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"kernel_mode\": \"checked\""), std::string::npos) << r.output;
    r = test::run(args + " --strict");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    r = test::run("--headless" + test::gpu_flag() + "--frames 2 --size 800x800 --kernel gradient.cu --strict");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("out of range"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
