// The user's kernel compiled for the CPU and run over the grid in this process (cpukernel/): the
// starters paint their reference pictures, errors name the user's line, checked mode's views and
// records work as on the GPU, __syncthreads() and __shared__ work, a divergent barrier is reported
// instead of hanging. Skipped with the reason where no C++ compiler is installed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <time.h>

#include "cpukernel/cpu_kernel.h"
#include "gpu/cpu_emulator.h"
#include "gpu/kernel_check.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

constexpr Pixel kPoison{1, 2, 3, 4};

Pixel rgb(int r, int g, int b) { return Pixel{std::uint8_t(b), std::uint8_t(g), std::uint8_t(r), 255}; }

// The tutorial's gradient from its formulas (integer division), independent of the starter's text.
Pixel gradient_at(int x, int y, int w, int h) { return rgb(128 - 128 * y / h, 255 - 255 * x / w, 255 - 255 * y / h); }

std::vector<Pixel> random_image(int w, int h, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<Pixel> p(std::size_t(w) * h);
    for (Pixel& q : p) q = Pixel{std::uint8_t(rng()), std::uint8_t(rng()), std::uint8_t(rng()), 255};
    return p;
}

Dim3 cover(int w, int h, const Dim3& block) {
    return Dim3{(w + block.x - 1) / block.x, (h + block.y - 1) / block.y, 1};
}

class CpuKernel : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = cpu_compiler_unavailable_reason()) GTEST_SKIP() << *why;
        cache_ = fs::temp_directory_path() / ("kc_cpu_kernel_test_" + std::to_string(getpid()));
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(cache_, ec);
    }

    CpuKernelModule compile(std::string_view source, KernelMode mode = KernelMode::Checked,
                            std::string_view name = "test.cu") {
        const CpuKernelBuild b = compile_cpu_kernel(source, name, mode, cache_);
        EXPECT_TRUE(b.ok) << b.log;
        if (!b.ok) throw std::runtime_error(b.log);
        return CpuKernelModule::load(b.so_path);
    }

    // Runs `k` over a w x h canvas poisoned first; a and b as given (else random images).
    struct Frame {
        std::vector<Pixel> out, a, b;
        KcViolation violation{};
        std::optional<std::string> error;
    };
    Frame paint(const CpuKernelModule& k, int w, int h, Dim3 block, std::optional<Dim3> grid = std::nullopt,
                float t = 0.0f, KcCheck check = {}, int workers = 2) {
        Frame f;
        f.out.assign(std::size_t(w) * h, kPoison);
        f.a = random_image(w, h, 1), f.b = random_image(w, h, 2);
        check.violation = &f.violation;
        if (!check.record.writers && check.max_blocks == 0) check.max_blocks = -1;
        CpuKernelLaunch l{
            grid.value_or(cover(w, h, block)), block, w, h, f.out.data(), f.a.data(), f.b.data(), t, check};
        f.error = k.run(l, workers);
        return f;
    }

    fs::path cache_;
};

TEST_F(CpuKernel, EveryStarterCompilesInBothModesAndPaintsItsReferencePicture) {
    const int w = 200, h = 120;
    for (const StarterKernel& s : starter_kernels()) {
        for (KernelMode mode : kKernelModes) {
            SCOPED_TRACE(std::string(s.name) + " " + to_string(mode));
            const CpuKernelModule k = compile(s.source, mode, std::string(s.name) + ".cu");
            EXPECT_EQ(k.mode(), mode);
            EXPECT_FALSE(k.has_barriers());
            const Dim3 block{32, 8, 1};
            const Frame f = paint(k, w, h, block, std::nullopt, 1.5f);
            ASSERT_FALSE(f.error) << *f.error;
            EXPECT_EQ(f.violation.count, 0u);
            int bad = 0;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const std::size_t i = std::size_t(y) * w + x;
                    const Pixel got = f.out[i];
                    Pixel want = kPoison;
                    int tolerance = 0;
                    if (s.name == "gradient") want = gradient_at(x, y, w, h);
                    if (s.name == "chess") want = (x / 80 + y / 80) % 2 == 1 ? rgb(255, 255, 255) : rgb(0, 0, 0);
                    if (s.name == "blend") {
                        auto m = [](int p, int q) { return int(0.75 * p + 0.25 * q + 0.5); };
                        const Pixel pa = f.a[i], pb = f.b[i];
                        want = rgb(m(pa.r, pb.r), m(pa.g, pb.g), m(pa.b, pb.b));
                    }
                    if (s.name == "waves") { // in double: the float math may differ by one step
                        auto wave01 = [](double s) {
                            const double tri = std::abs(2 * (s - std::floor(s)) - 1);
                            return tri * tri * (3 - 2 * tri);
                        };
                        const double t = 1.5, cx = w * (0.25 + 0.5 * wave01(0.11 * t)),
                                     cy = h * (0.25 + 0.5 * wave01(0.14 * t));
                        const double d = std::hypot(x - cx, y - cy), wave = wave01(d * 0.0125 - 0.64 * t);
                        auto c = [](double v) { return std::clamp(int(std::lround(v * 255)), 0, 255); };
                        want = rgb(c(wave * f.a[i].r / 255), c(0.3 * wave + 0.5 * f.a[i].g / 255), c(1 - 0.6 * wave));
                        tolerance = 1;
                    }
                    if (s.name == "fix_me") { // its bug, written out: x = blockIdx.x * 8 + threadIdx.x
                        const bool reached = x < (w + 31) / 32 * 8 + 24;
                        if (reached) want = (x / 16) % 2 ? rgb(250, 200, 40) : rgb(40, 120, 220);
                    }
                    const bool same = std::abs(got.r - want.r) <= tolerance && std::abs(got.g - want.g) <= tolerance &&
                                      std::abs(got.b - want.b) <= tolerance && got.a == want.a;
                    if (!same && bad++ < 3)
                        ADD_FAILURE() << "(" << x << "," << y << "): got " << int(got.r) << "," << int(got.g) << ","
                                      << int(got.b) << "," << int(got.a) << " want " << int(want.r) << ","
                                      << int(want.g) << "," << int(want.b) << "," << int(want.a);
                }
            EXPECT_EQ(bad, 0);
        }
    }
}

// The starters that mirror a built-in op paint the CPU emulator's picture of it, byte for byte:
// gradient, and blend with a and b the emulator's gradient and checkerboard.
TEST_F(CpuKernel, StartersThatMirrorAnOpPaintTheEmulatorsPictureOfIt) {
    auto emulated = [](const char* op) {
        PaintJob job; // 800x800, the default launch
        job.op = find_op(op)->index;
        std::vector<Pixel> out(800 * 800);
        EXPECT_FALSE(CpuGridEmulator(2).paint(job, out.data()));
        return out;
    };
    const std::vector<Pixel> gradient = emulated("gradient"), checkerboard = emulated("checkerboard"),
                             blend = emulated("blend");
    for (const char* name : {"gradient", "blend"}) {
        const CpuKernelModule k = compile(find_starter(name)->source);
        std::vector<Pixel> out(800 * 800, kPoison);
        KcViolation v{};
        KcCheck check{};
        check.violation = &v, check.max_blocks = -1;
        const Dim3 block{32, 8, 1};
        ASSERT_FALSE(k.run(
            {cover(800, 800, block), block, 800, 800, out.data(), gradient.data(), checkerboard.data(), 0.0f, check},
            2));
        EXPECT_TRUE(out == (std::string(name) == "gradient" ? gradient : blend)) << name;
    }
}

TEST_F(CpuKernel, ACompileErrorNamesTheUsersLineAsNvrtcDoes) {
    const std::string source = "// line 1\n"
                               "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
                               "const Pixel* b, float t) {\n"
                               "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "\n"
                               "    out[x] = undefined_thing;\n"
                               "}\n";
    for (KernelMode mode : kKernelModes) {
        const CpuKernelBuild b = compile_cpu_kernel(source, "mine.cu", mode, cache_);
        EXPECT_FALSE(b.ok);
        EXPECT_NE(b.log.find("mine.cu(5): error"), std::string::npos) << b.log;
        EXPECT_NE(b.log.find("undefined_thing"), std::string::npos) << b.log;
    }
}

TEST_F(CpuKernel, AWarpIntrinsicIsRefusedWithItsLineBeforeCompiling) {
    const std::string source = "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
                               "const Pixel* b, float t) {\n"
                               "    // __shfl_sync in a comment does not count\n"
                               "    int v = __shfl_down_sync(0xffffffff, 1, 1);\n"
                               "}\n";
    const CpuKernelBuild b = compile_cpu_kernel(source, "warp.cu", KernelMode::Checked, cache_);
    EXPECT_FALSE(b.ok);
    EXPECT_NE(b.log.find("warp.cu(3): error: __shfl_down_sync: warp intrinsics do not run on the CPU backend"),
              std::string::npos)
        << b.log;
}

TEST_F(CpuKernel, ASecondCompileOfTheSameTextIsTakenFromTheCache) {
    const CpuKernelBuild first =
        compile_cpu_kernel(default_starter().source, "gradient.cu", KernelMode::Checked, cache_);
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cached);
    const CpuKernelBuild again =
        compile_cpu_kernel(default_starter().source, "gradient.cu", KernelMode::Checked, cache_);
    ASSERT_TRUE(again.ok);
    EXPECT_TRUE(again.cached);
    EXPECT_EQ(again.so_path, first.so_path);
    const CpuKernelBuild raw = compile_cpu_kernel(default_starter().source, "gradient.cu", KernelMode::Raw, cache_);
    ASSERT_TRUE(raw.ok);
    EXPECT_FALSE(raw.cached);
    std::printf("gradient: compiled in %.0f ms, from the cache in %.1f ms\n", first.milliseconds, again.milliseconds);
}

// The signature every test kernel below opens with.
std::string kernel(const std::string& body) {
    return "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
           "float t) {\n" +
           body + "}\n";
}

const std::string kGradientBody = "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                                  "    if (x >= width || y > height) return; // y == height passes: past the end\n"
                                  "    store(out, y * width + x, make_pixel(128 - 128 * y / height, "
                                  "255 - 255 * x / width, 255 - 255 * y / height));\n";

TEST_F(CpuKernel, AnOutOfBoundsWriteIsNamedWithItsThreadAndInRangePixelsStayRight) {
    const CpuKernelModule k = compile(kernel(kGradientBody));
    const int w = 200, h = 100; // block 32x8: the last row of blocks reaches y = 100..103
    const Frame f = paint(k, w, h, Dim3{32, 8, 1}, std::nullopt, 0.0f, {}, 1);
    ASSERT_FALSE(f.error) << *f.error;
    EXPECT_EQ(f.violation.count, 200u); // row y = 100, x = 0..199
    EXPECT_EQ(
        describe(KernelViolations{f.violation.count, f.violation, w, h}),
        "thread (0,4) of block (0,12) wrote out[20000]: past the end (200x100 = 20000 pixels); its y = "
        "blockIdx.y*blockDim.y + threadIdx.y = 100 >= height 100 (and 199 more out-of-range accesses this frame)");
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) ASSERT_EQ(f.out[std::size_t(y) * w + x], gradient_at(x, y, w, h)) << x << "," << y;
}

// Block (0,0) dawdles before its bad writes while the other worker makes every other block's: the
// named access is still thread (0,0)'s first, the earliest in launch order, not the first in time.
const std::string kLateFirstBlockBody =
    "    const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y + threadIdx.y * blockDim.x +\n"
    "                  threadIdx.x;\n"
    "    if (blockIdx.x == 0 && blockIdx.y == 0) {\n"
    "        volatile int k = 0;\n"
    "        for (int j = 0; j < (1 << 22); ++j) k = k + j;\n"
    "    }\n"
    "    out[width * height + i] = make_pixel(1, 2, 3);\n"
    "    out[-1 - i] = make_pixel(1, 2, 3);\n";

TEST_F(CpuKernel, TheNamedAccessIsTheEarliestThreadsFirstWhicheverWorkerGetsThereFirst) {
    const CpuKernelModule k = compile(kernel(kLateFirstBlockBody));
    const Frame f = paint(k, 64, 64, Dim3{32, 8, 1}, std::nullopt, 0.0f, {}, 2);
    ASSERT_FALSE(f.error) << *f.error;
    EXPECT_EQ(f.violation.count, 2u * 64 * 64);
    const std::string text = describe(KernelViolations{f.violation.count, f.violation, 64, 64});
    EXPECT_EQ(text.rfind("thread (0,0) of block (0,0) wrote out[4096]: past the end (64x64 = 4096 pixels)", 0), 0u)
        << text;
    for (const Pixel& p : f.out) ASSERT_EQ(p, kPoison); // nothing written in range
}

TEST_F(CpuKernel, TheWriterRecordDecodesToTheThreadThatWroteEachPixel) {
    const CpuKernelModule k = compile(default_starter().source);
    const int w = 100, h = 60;
    const Dim3 block{16, 4, 1}, grid = cover(w, h, block);
    std::vector<unsigned> words(std::size_t(w) * h, 0u), block_sm(std::size_t(grid.count()), 77u);
    for (int identity : {0, 1}) {
        std::fill(words.begin(), words.end(), 0u);
        KcCheck check{};
        check.record = KcRecord{words.data(), block_sm.data(), static_cast<unsigned long long>(grid.count())};
        check.identity = identity;
        check.max_blocks = -1;
        const Frame f = paint(k, w, h, block, grid, 0.0f, check, 2);
        ASSERT_FALSE(f.error) << *f.error;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const std::size_t i = std::size_t(y) * w + x;
                const RecordedWriter r = decode_writer(words[i], block, grid);
                ASSERT_TRUE(r.written) << x << "," << y;
                EXPECT_EQ(r.writers, 1u);
                EXPECT_EQ(int(r.thread.bx * block.x + r.thread.tx), x);
                EXPECT_EQ(int(r.thread.by * block.y + r.thread.ty), y);
                // identity: the canvas keeps what it had; the record's picture is the gradient.
                EXPECT_EQ(f.out[i], identity ? kPoison : gradient_at(x, y, w, h));
                EXPECT_EQ(recorded_pixel(View::Pixels, words.data(), w, h, x, y, gradient_at(x, y, w, h), block, grid,
                                         block_sm.data(), grid.count(), {}),
                          gradient_at(x, y, w, h));
            }
        for (unsigned sm : block_sm) EXPECT_LT(sm, 2u) << "the worker that ran the block";
    }
}

TEST_F(CpuKernel, StepModeRunsTheFirstBlocksInLaunchOrder) {
    const CpuKernelModule k = compile(default_starter().source);
    const int w = 200, h = 120;
    KcCheck check{};
    check.max_blocks = 3;
    const Frame f = paint(k, w, h, Dim3{32, 8, 1}, std::nullopt, 0.0f, check);
    ASSERT_FALSE(f.error) << *f.error;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            ASSERT_EQ(f.out[std::size_t(y) * w + x], x < 96 && y < 8 ? gradient_at(x, y, w, h) : kPoison)
                << x << "," << y;
}

// A 5x5 box blur of a, edges clamped, through a 20x20 tile of shared memory per 16x16 block.
const std::string kTiledBlur =
    kernel("    __shared__ Pixel tile[20][20];\n"
           "    const int x0 = blockIdx.x * 16 - 2, y0 = blockIdx.y * 16 - 2;\n"
           "    for (int ty = threadIdx.y; ty < 20; ty += blockDim.y)\n"
           "        for (int tx = threadIdx.x; tx < 20; tx += blockDim.x) {\n"
           "            const int sx = min(max(x0 + tx, 0), width - 1);\n"
           "            const int sy = min(max(y0 + ty, 0), height - 1);\n"
           "            tile[ty][tx] = load(a, sy * width + sx);\n"
           "        }\n"
           "    __syncthreads();\n"
           "    const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + "
           "threadIdx.y;\n"
           "    if (x >= width || y >= height) return;\n"
           "    int r = 0, g = 0, bl = 0;\n"
           "    for (int dy = 0; dy < 5; ++dy)\n"
           "        for (int dx = 0; dx < 5; ++dx) {\n"
           "            const Pixel p = tile[threadIdx.y + dy][threadIdx.x + dx];\n"
           "            r += p.r, g += p.g, bl += p.b;\n"
           "        }\n"
           "    store(out, y * width + x, make_pixel((r + 12) / 25, (g + 12) / 25, (bl + 12) "
           "/ 25));\n");

Pixel box_blur_at(const std::vector<Pixel>& a, int w, int h, int x, int y) {
    int r = 0, g = 0, b = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            const Pixel p = a[std::size_t(std::clamp(y + dy, 0, h - 1)) * w + std::clamp(x + dx, 0, w - 1)];
            r += p.r, g += p.g, b += p.b;
        }
    return rgb((r + 12) / 25, (g + 12) / 25, (b + 12) / 25);
}

TEST_F(CpuKernel, ASharedMemoryKernelWithBarriersPaintsTheReferenceBlur) {
    for (KernelMode mode : kKernelModes) {
        const CpuKernelModule k = compile(kTiledBlur, mode, "blur.cu");
        EXPECT_TRUE(k.has_barriers());
        const int w = 203, h = 97; // blocks stick out past both edges
        const Frame f = paint(k, w, h, Dim3{16, 16, 1});
        ASSERT_FALSE(f.error) << *f.error;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                ASSERT_EQ(f.out[std::size_t(y) * w + x], box_blur_at(f.a, w, h, x, y))
                    << to_string(mode) << " " << x << "," << y;
    }
}

TEST_F(CpuKernel, SyncthreadsCountAddsTheBlocksPredicates) {
    const CpuKernelModule k =
        compile(kernel("    const int n = __syncthreads_count(threadIdx.x % 3 == 0);\n"
                       "    const bool all = __syncthreads_and(threadIdx.y < 8);\n"
                       "    const bool any = __syncthreads_or(threadIdx.x == 5 && blockIdx.x == 1);\n"
                       "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "    const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                       "    store(out, y * width + x, make_pixel(n, all, any));\n"));
    const Frame f = paint(k, 64, 8, Dim3{32, 8, 1});
    ASSERT_FALSE(f.error) << *f.error;
    EXPECT_EQ(f.out[0], rgb(88, 1, 0)); // 11 of every 32 columns, 8 rows
    EXPECT_EQ(f.out[63], rgb(88, 1, 1));
}

TEST_F(CpuKernel, ADivergentBarrierIsReportedWithTheBlockAndTheThreadsNotHung) {
    const CpuKernelModule k =
        compile(kernel("    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "    if (threadIdx.x < 8)\n"
                       "        __syncthreads();\n"
                       "    store(out, blockIdx.y * blockDim.y * width + x, make_pixel(1, 2, 3));\n"));
    const Frame f = paint(k, 64, 8, Dim3{32, 1, 1}, Dim3{2, 1, 1}, 0.0f, {}, 1);
    ASSERT_TRUE(f.error);
    EXPECT_EQ(*f.error, "block (0,0): 8 of its 32 threads reached the __syncthreads() of line 4 (threads (0,0), (1,0), "
                        "(2,0) and 5 more), but 24 returned without reaching it (threads (8,0), (9,0), (10,0) and 21 "
                        "more), so it could never be passed: every thread of a block must reach each __syncthreads() "
                        "(and 1 more blocks like it)");
    const CpuKernelModule two = compile(kernel("    if (threadIdx.x < 8)\n"
                                               "        __syncthreads();\n"
                                               "    else\n"
                                               "        __syncthreads();\n"));
    const Frame g = paint(two, 32, 1, Dim3{32, 1, 1}, Dim3{1, 1, 1});
    ASSERT_TRUE(g.error);
    EXPECT_NE(g.error->find("block (0,0): its threads wait at different barriers: thread (0,0) at the __syncthreads() "
                            "of line 3, thread (8,0) at line 5"),
              std::string::npos)
        << *g.error;
    // The same kernel object runs a good launch after a divergent one.
    const CpuKernelModule blur = compile(kTiledBlur, KernelMode::Checked, "blur.cu");
    const Frame h = paint(blur, 40, 40, Dim3{16, 16, 1});
    ASSERT_FALSE(h.error) << *h.error;
    EXPECT_EQ(h.out[41 * 20], box_blur_at(h.a, 40, 40, 20, 20));
}

TEST_F(CpuKernel, ARaisedStopEndsTheLaunchBetweenBlocks) {
    const CpuKernelModule k = compile(default_starter().source);
    std::vector<Pixel> out(64 * 64, kPoison), a(64 * 64), b(64 * 64);
    KcViolation v{};
    KcCheck check{};
    check.violation = &v, check.max_blocks = -1;
    const std::atomic<bool> stop{true};
    const auto why = k.run(
        CpuKernelLaunch{Dim3{2, 8, 1}, Dim3{32, 8, 1}, 64, 64, out.data(), a.data(), b.data(), 0.0f, check}, 2, &stop);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "stopped before every block had run");
}

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Not a timed assertion: the frame rates on this machine, for the closing note. Besides the wall
// clock's rate (which a busy machine lowers), the rate two idle cores would give from the CPU time
// a frame takes (both workers busy until the last block).
TEST_F(CpuKernel, FrameRatesAt800x800) {
#if defined(__SANITIZE_ADDRESS__)
    // Under ASan the figures say nothing, and LeakSanitizer's exit-time scan once crashed on this
    // test's many worker and fiber stacks ("Tracer caught signal 11").
    GTEST_SKIP() << "a measurement for the closing note: not under the sanitizers";
#endif
    auto measure = [&](const char* what, const CpuKernelModule& k, Dim3 block, int frames) {
        const int w = 800, h = 800;
        std::vector<Pixel> out(std::size_t(w) * h), a = random_image(w, h, 3), b = random_image(w, h, 4);
        KcViolation v{};
        KcCheck check{};
        check.violation = &v, check.max_blocks = -1;
        const CpuKernelLaunch l{cover(w, h, block), block, w, h, out.data(), a.data(), b.data(), 0.5f, check};
        EXPECT_FALSE(k.run(l, 2)); // warm-up: workers, fibers, pages
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpu_seconds();
        for (int n = 0; n < frames; ++n) EXPECT_FALSE(k.run(l, 2));
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = cpu_seconds() - c0;
        std::printf("%-44s %s: %6.1f frames/s (wall clock), %6.1f on 2 idle cores (%.1f ms CPU a frame)\n", what,
                    to_string(k.mode()), frames / wall, 2.0 * frames / cpu, 1000.0 * cpu / frames);
    };
    for (const char* name : {"gradient", "waves", "blend"})
        for (KernelMode mode : kKernelModes)
            measure((std::string(name) + ", 800x800, block 32x8").c_str(), compile(find_starter(name)->source, mode),
                    Dim3{32, 8, 1}, 15);
    for (KernelMode mode : kKernelModes)
        measure("tiled 5x5 box blur, __syncthreads, block 16x16", compile(kTiledBlur, mode, "blur.cu"), Dim3{16, 16, 1},
                5);
}

TEST_F(CpuKernel, TheCacheKeepsTheNewestKernelsOnly) {
    fs::create_directories(cache_);
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24);
    for (int k = 0; k < 300; ++k) {
        const fs::path p = cache_ / (std::to_string(k) + ".so");
        std::ofstream(p) << "old";
        fs::last_write_time(p, old + std::chrono::seconds(k));
    }
    const CpuKernelBuild b = compile_cpu_kernel(default_starter().source, "gradient.cu", KernelMode::Checked, cache_);
    ASSERT_TRUE(b.ok) << b.log;
    int kept = 0;
    for (const auto& e : fs::directory_iterator(cache_)) kept += e.path().extension() == ".so";
    EXPECT_EQ(kept, 256);
    EXPECT_TRUE(fs::exists(b.so_path));
    EXPECT_FALSE(fs::exists(cache_ / "0.so")) << "the oldest go first";
    EXPECT_TRUE(fs::exists(cache_ / "299.so"));
}

TEST_F(CpuKernel, ThePreludesIntrinsicsCompileAndAtomicsAreAtomic) {
    const CpuKernelModule k = compile(kernel(
        "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    if (x >= width || y >= height) return;\n"
        "    unsigned* counter = (unsigned*)out.data();\n"
        "    for (int k = 0; k < 50; ++k) atomicAdd(counter, 1u);\n"
        "    const dim3 d = blockDim; const uint3 i = threadIdx; (void)d; (void)i;\n"
        "    float f = sqrt(2.0f) + sinf(t) + __expf(0.0f) + rsqrtf(4.0f) + __saturatef(2.0f) + fminf(1.0f, 2.0f);\n"
        "    int n = __popc(0xFu) + __ffs(8) + __clz(1) + min(3, 4u) + max(-1, 2) + __float2int_rn(2.5f);\n"
        "    n += __ldg(&width) - width + __float_as_int(__int_as_float(7)) - 7;\n"
        "    if (x == 1 && y == 0) out[1] = make_pixel(n, __float2int_rn(f * 10.0f), __float2int_rd(-0.5f) + 5);\n"
        "    if (x == 2 && y == 0) { float g = 0.0f; atomicAdd(&g, 1.5f); int m = 5; atomicMax(&m, 9);\n"
        "        unsigned c = 0; atomicCAS(&c, 0u, 4u); out[2] = make_pixel(int(g * 2), m, c); }\n"));
    const Frame f = paint(k, 200, 120, Dim3{32, 8, 1});
    ASSERT_FALSE(f.error) << *f.error;
    unsigned counter = 0;
    std::memcpy(&counter, &f.out[0], 4);
    EXPECT_EQ(counter, 50u * 200u * 120u + pack(kPoison)) << "every thread's atomicAdd counted once";
    // n = 4 + 4 + 31 + 3 + 2 + 2 (to even) = 46; f = 1.41421 + 0 + 1 + 0.5 + 1 + 1 = 4.914.
    EXPECT_EQ(f.out[1], rgb(46, 49, 4));
    EXPECT_EQ(f.out[2], rgb(3, 9, 4));
}

// A fiber's stack overflowing is a fault (which the app's sandbox reports), not a kernel that runs
// on over other memory: 1 MiB of locals on a 256 KiB stack.
TEST_F(CpuKernel, AFiberStackOverflowIsAFaultAtTheGuardPage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const CpuKernelBuild b = compile_cpu_kernel(kernel("    __syncthreads();\n"
                                                       "    volatile char big[1 << 20];\n"
                                                       "    big[threadIdx.x] = 1;\n"
                                                       "    out[threadIdx.x].r = big[threadIdx.x];\n"),
                                                "deep.cu", KernelMode::Checked, cache_);
    ASSERT_TRUE(b.ok) << b.log;
    EXPECT_EXIT(
        {
            const CpuKernelModule k = CpuKernelModule::load(b.so_path);
            (void)paint(k, 32, 1, Dim3{32, 1, 1});
            std::exit(0);
        },
        // SIGSEGV; under AddressSanitizer, its report and exit 1
        [](int status) { return WIFSIGNALED(status) ? WTERMSIG(status) == SIGSEGV : WEXITSTATUS(status) == 1; }, "");
}

TEST_F(CpuKernel, ABarrierTheScanCouldNotSeeIsReportedNotIgnored) {
    const CpuKernelModule k =
        compile("#define SYNC(a) a##threads()\n" + kernel("    SYNC(__sync);\n"
                                                          "    out[threadIdx.x] = make_pixel(1, 2, 3);\n"));
    EXPECT_FALSE(k.has_barriers());
    const Frame f = paint(k, 32, 1, Dim3{32, 1, 1});
    ASSERT_TRUE(f.error);
    EXPECT_NE(f.error->find("line 3: a __syncthreads() that kcanvas could not see in your source"), std::string::npos)
        << *f.error;
}

TEST(CpuKernelCompiler, NoCompilerNamesThePackageToInstall) {
    const char* old_path = std::getenv("PATH");
    const std::string saved = old_path ? old_path : "";
    unsetenv("KCANVAS_CXX");
    setenv("PATH", "/nonexistent", 1);
    const std::optional<std::string> why = cpu_compiler_unavailable_reason();
    const CpuKernelBuild b = compile_cpu_kernel(default_starter().source, "gradient.cu", KernelMode::Checked,
                                                fs::temp_directory_path() / "kc_no_compiler");
    setenv("KCANVAS_CXX", "/nonexistent/c++", 1);
    const std::optional<std::string> named = cpu_compiler_unavailable_reason();
    unsetenv("KCANVAS_CXX");
    setenv("PATH", saved.c_str(), 1);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("install Debian's g++ (sudo apt install g++)"), std::string::npos) << *why;
    EXPECT_FALSE(b.ok);
    EXPECT_EQ(b.log, *why);
    ASSERT_TRUE(named);
    EXPECT_NE(named->find("KCANVAS_CXX names '/nonexistent/c++'"), std::string::npos) << *named;
}

} // namespace
} // namespace kc
