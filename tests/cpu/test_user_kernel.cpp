// The user's kernel without a GPU: NVRTC compiles every starter in assets/kernels for the H200's
// sm_90, a compile error names the user's own line, and the CPU backend refuses user code.
// Skipped, with the reason, where NVRTC cannot be loaded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/cpu_emulator.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"

namespace kc {
namespace {

constexpr ComputeCapability kH200{9, 0};

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class Nvrtc : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << *why;
    }
};

TEST_F(Nvrtc, EveryStarterInAssetsCompilesForSm90WithoutAGpu) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(KC_ASSETS) + "/kernels")) {
        if (entry.path().extension() != ".cu") continue;
        ++files;
        const KernelCompile k = compile_user_kernel(read_file(entry.path()), kH200, entry.path().filename().string());
        EXPECT_TRUE(k.ok) << entry.path() << "\n" << k.log;
        EXPECT_EQ(k.target, "sm_90");
        EXPECT_FALSE(k.image.empty()) << entry.path();
        EXPECT_GT(k.milliseconds, 0.0);
    }
    EXPECT_GE(files, 4);
}

TEST_F(Nvrtc, ASyntaxErrorNamesTheUsersLineNotThePreludesLine) {
    // Line 4 of what the user typed lacks a semicolon; NVRTC reports it on line 4 or at the
    // start of line 5 (where it notices), never shifted by the prelude's lines.
    const std::string source = "extern \"C\" __global__ void paint(Pixel* out, int width, int height,\n"
                               "                                  const Pixel* a, const Pixel* b, float t) {\n"
                               "    const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    const int y = blockIdx.y * blockDim.y + threadIdx.y\n"
                               "    if (x >= width || y >= height) return;\n"
                               "    store(out, y * width + x, make_pixel(x, y, 0));\n"
                               "}\n";
    const KernelCompile k = compile_user_kernel(source, kH200, "mine.cu");
    EXPECT_FALSE(k.ok);
    EXPECT_TRUE(k.image.empty());
    EXPECT_TRUE(k.log.find("mine.cu(4)") != std::string::npos || k.log.find("mine.cu(5)") != std::string::npos)
        << k.log;
    EXPECT_EQ(k.log.find("kcanvas_prelude"), std::string::npos) << k.log;

    // An undefined name on line 2 is reported on line 2 exactly.
    const KernelCompile undefined = compile_user_kernel("extern \"C\" __global__ void paint(Pixel* out, int width, int "
                                                        "height, const Pixel* a, const Pixel* b, float t) {\n"
                                                        "    out[0] = make_pixel(no_such_variable, 0, 0);\n"
                                                        "}\n",
                                                        kH200, "mine.cu");
    EXPECT_FALSE(undefined.ok);
    EXPECT_NE(undefined.log.find("mine.cu(2)"), std::string::npos) << undefined.log;
    EXPECT_NE(undefined.log.find("no_such_variable"), std::string::npos) << undefined.log;
}

TEST_F(Nvrtc, AWrongSignatureIsACompileErrorOnTheUsersLine) {
    const std::string source = "\nextern \"C\" __global__ void paint(Pixel* out, int width) {}\n";
    const KernelCompile raw = compile_user_kernel(source, kH200, "sig.cu", KernelMode::Raw);
    EXPECT_FALSE(raw.ok);
    EXPECT_NE(raw.log.find("sig.cu(2)"), std::string::npos) << raw.log;
    EXPECT_NE(raw.log.find("hint: paint must keep the signature"), std::string::npos) << raw.log;
    // Checked mode refuses before NVRTC runs, on the same line, and names the way out.
    const KernelCompile checked = compile_user_kernel(source, kH200, "sig.cu", KernelMode::Checked);
    EXPECT_FALSE(checked.ok);
    EXPECT_NE(checked.log.find("sig.cu(2): error: checked mode needs paint's signature"), std::string::npos)
        << checked.log;
    EXPECT_NE(checked.log.find("--kernel-mode raw"), std::string::npos) << checked.log;
}

TEST_F(Nvrtc, PreludeHelpersNeedNoQualifiers) {
    // Helper functions without __device__ compile as device code (--device-as-default-execution-space).
    const KernelCompile k =
        compile_user_kernel("int twice(int v) { return 2 * v; }\n"
                            "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
                            "const Pixel* b, float t) {\n"
                            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i < width * height) store(out, i, mix(load(a, i), load(b, i), 0.25f));\n"
                            "    if (i == 0) out[0] = make_pixel_f(t, 0.5f, twice(1));\n"
                            "}\n",
                            kH200);
    EXPECT_TRUE(k.ok) << k.log;
}

TEST(UserKernel, StartersInTheBinaryAreTheFilesInAssets) {
    ASSERT_FALSE(starter_kernels().empty());
    EXPECT_EQ(default_starter().name, "gradient");
    for (const StarterKernel& s : starter_kernels()) {
        EXPECT_EQ(read_file(std::string(KC_ASSETS) + "/kernels/" + std::string(s.name) + ".cu"), s.source) << s.name;
        EXPECT_FALSE(s.title.empty()) << s.name;
        EXPECT_EQ(s.title.find("//"), std::string::npos) << s.title;
    }
    EXPECT_NE(user_kernel_prelude(KernelMode::Raw).find("struct __align__(4) Pixel"), std::string::npos);
    EXPECT_NE(user_kernel_prelude(KernelMode::Raw).find("extern \"C\" __global__ void paint("), std::string::npos);
}

TEST(UserKernel, IsInTheRegistryAndTheCpuBackendRefusesItWithAReason) {
    const OpInfo* op = find_op("user_kernel");
    ASSERT_NE(op, nullptr);
    EXPECT_TRUE(op->user_code);
    EXPECT_FALSE(op->custom);
    EXPECT_EQ(op->cpu_paint, nullptr);
    PaintJob job;
    job.op = op->index;
    job.params.width = job.params.height = 64;
    std::vector<Pixel> out(64 * 64, Pixel{1, 2, 3, 4});
    const auto refusal = CpuGridEmulator(1).paint(job, out.data());
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(refusal->find("cpu backend cannot run your kernel"), std::string::npos) << *refusal;
    for (const Pixel& p : out) ASSERT_EQ(p, (Pixel{1, 2, 3, 4})); // untouched
}

TEST(UserKernel, LaunchChecksAreThoseOfTheOtherOpsAndTheAutoGridIs2d) {
    PaintJob job;
    job.op = find_op("user_kernel")->index;
    job.params.width = 800, job.params.height = 600;
    job.launch.block = {50, 30, 1}; // 1500 threads
    EXPECT_NE(resolve_launch(job, universal_limits()).refusal.value_or("").find("1500 threads"), std::string::npos);
    job.launch.block = {32, 8, 1};
    job.launch.mapping = Mapping::Linear; // the panel's mapping is for the built-in ops: ignored here
    job.launch.pixels_per_thread = 4;
    job.view = View::Block;
    const ResolvedLaunch plan = resolve_launch(job, universal_limits());
    ASSERT_FALSE(plan.refusal) << *plan.refusal;
    EXPECT_EQ(plan.grid, (Dim3{25, 75, 1}));
    EXPECT_TRUE(plan.clear_first); // every frame starts hatched
    job.launch = tutorial_preset();
    EXPECT_EQ(resolve_launch(job, universal_limits()).grid, (Dim3{80, 8, 1}));
}

} // namespace
} // namespace kc
