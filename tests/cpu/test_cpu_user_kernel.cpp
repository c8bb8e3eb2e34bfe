// The user's kernel on the cpu backend (issue 27): compiled for the CPU (cpukernel/) and run in
// the kernel sandbox (sandbox/) by render/cpu_user_kernel.h, as the window's painter and headless
// run it. A kernel that writes a file, runs a command, opens a socket or forks is stopped with its
// thread and the call named, nothing reaches the disk, and the next frame paints; an endless loop
// is stopped within the time limit; a crash names its thread; checked mode's out-of-range writes
// reach OpOutputs as on the GPU. One kernel serves every case: `t` picks what thread (5,3) does.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpu/kernel_check.h"
#include "gpu/registry.h"
#include "render/cpu_user_kernel.h"
#include "tests/support/run_process.h"
#include "tests/support/time_factor.h"

namespace kc {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// The thread a report names (under AddressSanitizer the host names none: sandbox/host_runner.cpp).
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kThread = "";
#else
constexpr const char* kThread = "thread (5,3,0) of block (0,0,0) ";
#endif

constexpr const char* kKernel = R"(#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
extern "C" int system(const char*); // <stdlib.h>'s abs would clash with the prelude's
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    if (x == 5 && y == 3) {
        const int what = (int)t;
        if (what == 1) { FILE* f = fopen("MARKER", "w"); if (f) { fputs("escaped", f); fclose(f); } }
        if (what == 2) (void)!system("touch MARKER");
        if (what == 3) (void)socket(AF_INET, SOCK_STREAM, 0);
        if (what == 4) { if (fork() == 0) _exit(0); }
        if (what == 5) { volatile int spin = 0; while (true) spin = spin + 1; }
        if (what == 6) *(volatile int*)16 = 1;
        if (what == 7) out[-1] = a[0];
        if (what == 8) printf("thread %u of block %u says hello\n", threadIdx.x, blockIdx.x);
    }
    out[y * width + x] = a[y * width + x];
}
)";

class CpuUserKernelTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        setenv("KCANVAS_KERNEL_HOST", KC_KERNEL_HOST, 1);
        dir_ = fs::path(::testing::TempDir()) / ("kc_cpu_user_kernel_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        marker_ = dir_ / "escaped.txt";
        source_ = kKernel;
        for (std::size_t at; (at = source_.find("MARKER")) != std::string::npos;)
            source_.replace(at, 6, marker_.string());
        std::ofstream(dir_ / "kernel.cu") << source_;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    void SetUp() override {
        fs::remove(marker_);
        const KernelCompile c = kernel_.compile(source_, "kernel.cu", KernelMode::Checked);
        ASSERT_TRUE(c.ok) << c.log;
        for (std::size_t i = 0; i < a_.size(); ++i) a_[i] = unpack(0xff000000u + unsigned(i));
    }

    // One 64x32 frame with block 32x8, thread (5,3) of block (0,0) doing what `t` says.
    std::optional<std::string> frame(float t) {
        PaintJob job;
        job.op = find_op("user_kernel")->index;
        job.params.width = 64, job.params.height = 32, job.params.seconds = t;
        job.launch.block = Dim3{32, 8, 1};
        job.view = view_;
        ResolvedLaunch resolved = resolve_launch(job, universal_limits());
        EXPECT_FALSE(resolved.refusal) << *resolved.refusal;
        pixels_.assign(a_.size(), Pixel{});
        outputs_ = OpOutputs{};
        return kernel_.paint(job, resolved, pixels_.data(), a_.data(), a_.data(), nullptr, outputs_);
    }
    void expect_next_frame_paints() {
        EXPECT_EQ(frame(0.0f), std::nullopt);
        EXPECT_EQ(pack(pixels_[70]), pack(a_[70]));
    }

    static inline fs::path dir_, marker_;
    static inline std::string source_;
    View view_ = View::Pixels;
    CpuUserKernel kernel_{dir_ / "cache"};
    std::vector<Pixel> a_ = std::vector<Pixel>(64 * 32), pixels_;
    OpOutputs outputs_;
};

TEST_F(CpuUserKernelTest, PaintsInTheSandbox) {
    expect_next_frame_paints();
    EXPECT_TRUE(outputs_.has_violations);
    EXPECT_EQ(outputs_.violations.count, 0u);
}

TEST_F(CpuUserKernelTest, CallsOutsideComputingAreStoppedAndNothingHappens) {
    struct Case {
        float t;
        const char* call;
    };
    for (const Case c : {Case{1, "openat"}, Case{2, "rt_sigaction"}, Case{3, "socket"}, Case{4, "clone"}}) {
        const std::optional<std::string> report = frame(c.t);
        EXPECT_FALSE(fs::exists(marker_)) << "t = " << c.t << " reached the disk";
        ASSERT_TRUE(report) << "t = " << c.t << " was not stopped";
        EXPECT_EQ(*report, std::string("the sandbox stopped your kernel: ") + kThread + "called " + c.call +
                               " (a kernel may only compute: no files, processes or network)");
        expect_next_frame_paints();
    }
}

TEST_F(CpuUserKernelTest, AnEndlessLoopIsStoppedWithinTheLimit) {
    const auto limit = 500ms * test::time_factor();
    kernel_.set_time_limit(limit);
    const auto start = std::chrono::steady_clock::now();
    const std::optional<std::string> report = frame(5);
    EXPECT_LT(std::chrono::steady_clock::now() - start, limit + 1s);
    ASSERT_TRUE(report);
    EXPECT_NE(report->find("your kernel ran past"), std::string::npos) << *report;
    EXPECT_NE(report->find("(an endless loop?): stopped"), std::string::npos) << *report;
    expect_next_frame_paints();
}

TEST_F(CpuUserKernelTest, ACrashNamesItsThread) {
    const std::optional<std::string> report = frame(6);
    ASSERT_TRUE(report);
    EXPECT_EQ(*report, std::string("your kernel crashed: ") + kThread + "touched memory it may not (SIGSEGV at 0x10)");
    expect_next_frame_paints();
}

TEST_F(CpuUserKernelTest, OutOfRangeWritesReachTheOutputsAsOnTheGpu) {
    EXPECT_EQ(frame(7), std::nullopt);
    ASSERT_TRUE(outputs_.has_violations);
    EXPECT_EQ(outputs_.violations.count, 1u);
    EXPECT_NE(describe(outputs_.violations).find("thread (5,3) of block (0,0) wrote out[-1]"), std::string::npos)
        << describe(outputs_.violations);
}

// The views read the writer record the sandboxed frame kept, as on the GPU: in the block view each
// pixel has the colour of the block whose thread wrote it.
TEST_F(CpuUserKernelTest, TheBlockViewColoursEachPixelByItsWriter) {
    view_ = View::Block;
    ASSERT_EQ(frame(0), std::nullopt);
    for (unsigned y = 0; y < 32; ++y)
        for (unsigned x = 0; x < 64; ++x) {
            const ThreadCoords t{x / 32, y / 8, 0, x % 32, y % 8, 0, 32, 8, 1, 2, 4, 1};
            ASSERT_EQ(pack(pixels_[y * 64 + x]), pack(view_colour(View::Block, t, 0, Mapping::TwoD, 64)))
                << x << "," << y;
        }
}

// printf is computing's output, as on the GPU: it reaches kcanvas' stdout and the frame paints.
TEST_F(CpuUserKernelTest, PrintfIsAllowed) {
    EXPECT_EQ(frame(8), std::nullopt);
    EXPECT_EQ(pack(pixels_[70]), pack(a_[70]));
}

// Headless: the same stop, the exit code of bad input, and nothing on disk.
TEST_F(CpuUserKernelTest, HeadlessStopsTheKernelAndSaysWhy) {
    const auto r = test::run("--headless --backend cpu --size 64x32 --block 32x8 --kernel " +
                             (dir_ / "kernel.cu").string() + " --frames 70");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(std::string("the sandbox stopped your kernel: ") + kThread + "called openat"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(marker_));
}

// --kernel-time-limit: a kernel that never ends is stopped after the limit given.
TEST_F(CpuUserKernelTest, HeadlessTimeLimitIsASetting) {
    std::ofstream(dir_ / "loop.cu") << "extern \"C\" __global__ void paint(Pixel* out, int width, int height, "
                                       "const Pixel* a, const Pixel* b, float t) {\n"
                                       "    volatile int spin = 0;\n    while (true) spin = spin + 1;\n}\n";
    const auto r = test::run("--headless --backend cpu --size 64x32 --kernel-time-limit 0.5 --kernel " +
                             (dir_ / "loop.cu").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("your kernel ran past 0.5 s (an endless loop?): stopped"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
