// The user's kernel compiled for the CPU and run over the grid in this process (cpukernel/): the
// starters paint their reference pictures, errors name the user's line, checked mode's views and
// records work as on the GPU, __syncthreads() and __shared__ work, a divergent barrier is reported
// instead of hanging. Skipped with the reason where no C++ compiler is installed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cpukernel/cpu_kernel.h"
#include "gpu/kernel_check.h"
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
                    if (s.name == "chess") want = (x / 100 + y / 100) % 2 == 1 ? rgb(255, 255, 255) : rgb(0, 0, 0);
                    if (s.name == "blend") {
                        auto m = [](int p, int q) { return int(0.75 * p + 0.25 * q + 0.5); };
                        const Pixel pa = f.a[i], pb = f.b[i];
                        want = rgb(m(pa.r, pb.r), m(pa.g, pb.g), m(pa.b, pb.b));
                    }
                    if (s.name == "waves") { // in double: the float math may differ by one step
                        const double t = 1.5, cx = w * (0.5 + 0.25 * std::cos(0.7 * t)),
                                     cy = h * (0.5 + 0.25 * std::sin(0.9 * t));
                        const double d = std::hypot(x - cx, y - cy), wave = 0.5 + 0.5 * std::sin(d * 0.08 - 4 * t);
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
