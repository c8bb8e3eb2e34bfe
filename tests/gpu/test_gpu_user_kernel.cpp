// The user's kernel on a real GPU: NVRTC compiles the starters for the device, the runtime's
// library API loads them, and cuda_paint launches them with the panel's block and grid. Checked
// pixel for pixel against references written here, into poisoned output. Skipped, with the
// reason, where there is no CUDA GPU or no NVRTC.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <tuple>

#include "gpu/cuda_device.h"
#include "gpu/cuda_paint.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "tests/support/gpu_test.h"
#include "tests/support/image_file.h"
#include "tests/support/reference.h"
#include "tests/support/run_process.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

using test::kPoison;

// The tutorial's gradient, from its formulas (integer division), independent of the starter's text.
Pixel gradient_at(int x, int y, int w, int h) {
    return Pixel{std::uint8_t(255 - 255 * y / h), std::uint8_t(255 - 255 * x / w), std::uint8_t(128 - 128 * y / h),
                 255};
}

class GpuUserKernel : public test::GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped()) return;
        if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << *why;
    }

    UserKernel compile(std::string_view source, std::string_view name = "test.cu") {
        const KernelCompile k = compile_user_kernel(source, current_device_capability(), name);
        EXPECT_TRUE(k.ok) << k.log;
        return UserKernel::load(k);
    }

    // Paints `job` (op user_kernel) with `kernel` into a poisoned device buffer; returns the pixels,
    // or the refusal in `refusal`.
    std::vector<Pixel> paint(const UserKernel& kernel, PaintJob job, std::optional<std::string>* refusal = nullptr) {
        job.op = find_op("user_kernel")->index;
        ws_.user_kernel = &kernel;
        return paint_poisoned(job, {}, refusal);
    }
};

TEST_F(GpuUserKernel, GradientStarterEqualsTheTutorialsFormulaAtEveryPixel) {
    const UserKernel kernel = compile(default_starter().source, "gradient.cu");
    for (auto [w, h, block] : {std::tuple{800, 800, Dim3{32, 8, 1}},
                               {333, 217, Dim3{50, 20, 1}},
                               {1, 1, Dim3{1, 1, 1}},
                               {3840, 2160, Dim3{16, 16, 1}},
                               {1000, 3, Dim3{1024, 1, 1}}}) {
        PaintJob job;
        job.params.width = w, job.params.height = h;
        job.launch.block = block;
        const auto out = paint(kernel, job);
        int bad = 0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (!(out[std::size_t(y) * w + x] == gradient_at(x, y, w, h)) && bad++ < 3)
                    ADD_FAILURE() << w << "x" << h << " block " << to_string(block) << ": pixel (" << x << "," << y
                                  << ")";
        EXPECT_EQ(bad, 0);
    }
}

TEST_F(GpuUserKernel, ChessStarterWithTheTutorialsLaunchCoversItsCanvas) {
    const UserKernel kernel = compile(find_starter("chess")->source, "chess.cu");
    PaintJob job;
    job.params.width = job.params.height = 800;
    job.launch = tutorial_preset(); // block 50x20, grid 80x8: exactly 640000 threads
    for (const auto& [w, h, grid] : {std::tuple{800, 800, Dim3{80, 8, 1}}, std::tuple{1000, 600, Dim3{40, 15, 1}}}) {
        job.params.width = w, job.params.height = h;
        job.launch.grid = grid; // 1000 threads a block, one per pixel
        const auto out = paint(kernel, job);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) { // the tutorial's 80-px cells, squares whatever the width
                const std::uint8_t v = (x / 80 + y / 80) % 2 == 1 ? 255 : 0;
                ASSERT_EQ(out[std::size_t(y) * w + x], (Pixel{v, v, v, 255})) << w << "x" << h << ": " << x << "," << y;
            }
    }
}

TEST_F(GpuUserKernel, ATooSmallGridLeavesExactlyTheUncoveredPixelsHatched) {
    const UserKernel kernel = compile(default_starter().source);
    PaintJob job;
    job.params.width = 200, job.params.height = 100;
    job.launch.block = {32, 8, 1};
    job.launch.auto_grid = false;
    job.launch.grid = {3, 2, 1}; // 96 x 16 threads
    const auto out = paint(kernel, job);
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 200; ++x) {
            const Pixel p = out[std::size_t(y) * 200 + x];
            if (x < 96 && y < 16)
                ASSERT_EQ(p, gradient_at(x, y, 200, 100)) << x << "," << y;
            else
                ASSERT_EQ(p, uncovered_pixel(x, y)) << x << "," << y; // the unwritten marker, never the poison
        }
}

TEST_F(GpuUserKernel, BlockAndGridOfTheLaunchConfigAreTheKernelsBlockDimAndGridDim) {
    // Thread (0,0,0) of block (0,0,0) reports blockDim in pixel 0 and gridDim in pixel 1.
    const UserKernel kernel =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    if (blockIdx.x + blockIdx.y + blockIdx.z + threadIdx.x + threadIdx.y + threadIdx.z != 0) return;\n"
                "    out[0] = make_pixel(blockDim.x, blockDim.y, blockDim.z);\n"
                "    out[1] = make_pixel(gridDim.x, gridDim.y, gridDim.z);\n"
                "}\n");
    struct Case {
        Dim3 block, grid;
        bool auto_grid;
        Dim3 expected_grid;
    };
    for (const Case& c : {Case{{7, 5, 1}, {}, true, {15, 12, 1}}, Case{{50, 20, 1}, {80, 8, 1}, false, {80, 8, 1}},
                          Case{{32, 8, 2}, {3, 4, 5}, false, {3, 4, 5}}, Case{{128, 1, 1}, {}, true, {1, 60, 1}}}) {
        PaintJob job;
        job.params.width = 100, job.params.height = 60;
        job.launch.block = c.block;
        job.launch.grid = c.grid;
        job.launch.auto_grid = c.auto_grid;
        const auto out = paint(kernel, job);
        EXPECT_EQ(out[0], (Pixel{std::uint8_t(c.block.z), std::uint8_t(c.block.y), std::uint8_t(c.block.x), 255}))
            << to_string(c.block);
        EXPECT_EQ(out[1], (Pixel{std::uint8_t(c.expected_grid.z), std::uint8_t(c.expected_grid.y),
                                 std::uint8_t(c.expected_grid.x), 255}))
            << to_string(c.block);
        EXPECT_EQ(out[2], uncovered_pixel(2, 0)); // every other pixel starts hatched
    }
}

TEST_F(GpuUserKernel, InputsAreTheFallbackImagesAndTIsPassed) {
    // a and b are the gradient and the checkerboard without images; t arrives as given.
    const UserKernel kernel =
        compile("extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
                "float t) {\n"
                "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                "    if (x >= width || y >= height) return;\n"
                "    const int i = y * width + x;\n"
                "    store(out, i, x == 0 && y == 0 ? make_pixel(int(t), 0, 0) : (x % 2 ? load(a, i) : load(b, i)));\n"
                "}\n");
    PaintJob job;
    job.params.width = 90, job.params.height = 70;
    job.params.cell = 9;
    job.params.seconds = 42.0f;
    const auto out = paint(kernel, job);
    EXPECT_EQ(out[0], (Pixel{0, 0, 42, 255}));
    for (int y = 0; y < 70; ++y)
        for (int x = 0; x < 90; ++x) {
            if (x == 0 && y == 0) continue;
            const ref::Rgb e = x % 2 ? ref::gradient(x, y, 90, 70) : ref::checkerboard(x, y, 9);
            ASSERT_TRUE(ref::same_rgb(out[std::size_t(y) * 90 + x], e)) << x << "," << y;
        }
}

TEST_F(GpuUserKernel, ABlockTooLargeForTheKernelsRegistersIsRefusedWithTheNumbers) {
    const UserKernel kernel = compile(default_starter().source);
    EXPECT_GE(kernel.max_threads_per_block(), 1024); // a tiny kernel fits any block
    EXPECT_EQ(kernel.launch_error({32, 32, 1}), std::nullopt);
    PaintJob job;
    job.params.width = job.params.height = 64;
    job.launch.block = {50, 30, 1}; // over the device limit: the usual message
    std::optional<std::string> refusal;
    const auto out = paint(kernel, job, &refusal);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(refusal->find("1500 threads"), std::string::npos) << *refusal;
    for (const Pixel& p : out) ASSERT_EQ(p, kPoison); // refused before anything was written
}

TEST_F(GpuUserKernel, ASourceWithoutPaintIsALoadErrorNotACrash) {
    // Checked mode finds no paint before NVRTC runs; raw mode compiles it, and loading says why.
    const KernelCompile checked =
        compile_user_kernel("__global__ void draw(Pixel* out) {}\n", current_device_capability());
    EXPECT_FALSE(checked.ok);
    EXPECT_NE(checked.log.find("no kernel named paint"), std::string::npos) << checked.log;
    const KernelCompile k = compile_user_kernel("__global__ void draw(Pixel* out) {}\n", current_device_capability(),
                                                "kernel.cu", KernelMode::Raw);
    ASSERT_TRUE(k.ok) << k.log;
    try {
        (void)UserKernel::load(k);
        FAIL() << "loaded a library without paint";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no kernel named paint"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess); // nothing sticky left behind
}

// Through the FramePainter (headless EGL): a failed compile keeps the previous kernel running.
TEST_F(GpuUserKernel, ACompileErrorKeepsThePreviousKernelRunning) {
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(test::test_gpu());
    } catch (const std::exception& e) {
        GTEST_SKIP() << "no headless EGL on the CUDA device: " << e.what();
    }
    FramePainter painter(Backend::CudaStaged);
    Canvas canvas(160, 90);
    PaintJob job;
    job.op = find_op("user_kernel")->index;
    job.params.width = 160, job.params.height = 90;
    EXPECT_EQ(painter.paint(job, canvas), std::optional<std::string>(kNoUserKernel)); // nothing compiled yet
    ASSERT_TRUE(painter.compile_user_kernel(default_starter().source, "gradient.cu").ok);
    auto expect_gradient = [&] {
        canvas.write_pixel_buffer(std::vector<Pixel>(canvas.pixel_count(), kPoison));
        ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
        const auto texture = canvas.read_texture();
        for (int y = 0; y < 90; ++y)
            for (int x = 0; x < 160; ++x)
                ASSERT_EQ(texture[std::size_t(y) * 160 + x], gradient_at(x, y, 160, 90)) << x << "," << y;
    };
    expect_gradient();
    const KernelCompile broken =
        painter.compile_user_kernel("extern \"C\" __global__ void paint(Pixel* out) { oops }\n", "broken.cu");
    EXPECT_FALSE(broken.ok);
    EXPECT_NE(broken.log.find("broken.cu(1)"), std::string::npos) << broken.log;
    EXPECT_TRUE(painter.has_user_kernel());
    EXPECT_EQ(painter.user_kernel_source(), default_starter().source);
    expect_gradient(); // the old kernel still paints
}

// The command line on a GPU: a kernel that does not compile exits 2 with the log; the gradient
// starter writes the reference picture.
TEST_F(GpuUserKernel, HeadlessCompileErrorAndPicture) {
    const std::string dir = ::testing::TempDir() + "/kc_user_kernel";
    std::filesystem::create_directories(dir);
    const std::string bad = dir + "/bad.cu";
    std::ofstream(bad)
        << "// fine\nextern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
           "const Pixel* b, float t) { undefined_thing(); }\n";
    auto r = test::run("--headless" + test::gpu_flag() + "--kernel " + bad);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("bad.cu(2)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("undefined_thing"), std::string::npos) << r.output;

    const std::string picture = dir + "/gradient.png";
    std::filesystem::remove(picture);
    r = test::run("--headless" + test::gpu_flag() + "--frames 3 --size 320x200 --kernel " + std::string(KC_ASSETS) +
                  "/kernels/gradient.cu --out " + picture);
    if (r.exit_code == 1 && r.output.find("cannot render headless") != std::string::npos)
        GTEST_SKIP() << "no headless EGL: " << r.output;
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto img = test::load_png(picture);
    ASSERT_EQ(img.width, 320);
    for (int y = 0; y < 200; ++y)
        for (int x = 0; x < 320; ++x)
            ASSERT_EQ(img.pixels[std::size_t(y) * 320 + x], gradient_at(x, y, 320, 200)) << x << "," << y;
}

// Same kernel, same pixels: every starter's picture from the CPU backend (g++, in the sandbox) is
// byte for byte the GPU's (NVRTC), at a size no block divides and a t where the waves have moved.
TEST_F(GpuUserKernel, EveryStarterPaintsTheSameBytesOnTheCpuBackendAsOnTheGpu) {
    const std::string dir = ::testing::TempDir() + "/kc_cpu_vs_gpu";
    std::filesystem::create_directories(dir);
    for (const StarterKernel& s : starter_kernels()) {
        SCOPED_TRACE(s.name);
        const std::string kernel = std::string(KC_ASSETS) + "/kernels/" + std::string(s.name) + ".cu";
        const std::string args = " --frames 40 --size 801x603 --kernel " + kernel + " --out " + dir + "/";
        const auto gpu = test::run("--headless" + test::gpu_flag() + args + "gpu.png");
        if (gpu.exit_code == 1 && gpu.output.find("cannot render headless") != std::string::npos)
            GTEST_SKIP() << "no headless EGL: " << gpu.output;
        ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
        const auto cpu = test::run("--headless --backend cpu" + args + "cpu.png");
        if (cpu.exit_code != 0 && cpu.output.find("need a C++ compiler") != std::string::npos)
            GTEST_SKIP() << cpu.output;
        ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
        const auto from_gpu = test::load_png(dir + "/gpu.png"), from_cpu = test::load_png(dir + "/cpu.png");
        ASSERT_EQ(from_gpu.pixels.size(), 801u * 603);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < from_gpu.pixels.size(); ++i) differ += from_gpu.pixels[i] != from_cpu.pixels[i];
        EXPECT_EQ(differ, 0u) << "pixels that differ between the backends";
    }
}

// A kernel that faults exits 1, says why and saves its source. Opt-in: on the H200 machine a
// faulting kernel (Xid 31, an MMU fault on the graphics engine) left the pbo present path hanging
// in the processes that came after it (the surface and staged paths still ran; the watchdog ends
// such a process), so by default this test must not share a machine with the rest of the suite.
// Run it last: KC_TEST_KERNEL_FAULTS=1.
TEST_F(GpuUserKernel, AFaultingKernelExitsWithItsSourceSaved) {
    if (!std::getenv("KC_TEST_KERNEL_FAULTS"))
        GTEST_SKIP() << "opt-in (KC_TEST_KERNEL_FAULTS=1): a GPU fault can leave the GPU unusable for later "
                        "processes; run it last";
    const std::string dir = ::testing::TempDir() + "/kc_user_kernel_fault";
    std::filesystem::create_directories(dir);
    // A write far outside any allocation (an address the compiler cannot see through, unlike a
    // null pointer): an illegal address, which no CUDA call in the process survives.
    const std::string faulty = dir + "/faulty.cu";
    const std::string faulty_source =
        "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float "
        "t) {\n"
        "    Pixel* nowhere = reinterpret_cast<Pixel*>(static_cast<unsigned long long>(height) << 36);\n"
        "    nowhere[blockIdx.x * blockDim.x + threadIdx.x] = make_pixel(255, 0, 0);\n"
        "}\n";
    std::ofstream(faulty) << faulty_source;
    for (const char* backend : {"cuda-interop", "cuda-staged"}) {
        SCOPED_TRACE(backend);
        const std::string work = dir + "/fault-" + backend;
        std::filesystem::remove_all(work);
        std::filesystem::create_directories(work);
        // `work` is the data dir, whose rescued/ gets the source; timeout: a hang is a failure too.
        const auto fault = test::run_shell("cd " + work + " && XDG_DATA_HOME=" + work + " timeout 120 " +
                                           std::string(KCANVAS_BIN) + " --headless --frames 5" + test::gpu_flag() +
                                           "--backend " + backend + " --kernel " + faulty);
        EXPECT_EQ(fault.exit_code, 1) << fault.output;
        EXPECT_NE(fault.output.find("a kernel faulted on the GPU"), std::string::npos) << fault.output;
        EXPECT_TRUE(fault.output.find("illegal") != std::string::npos ||
                    fault.output.find("launch failure") != std::string::npos)
            << fault.output; // the CUDA error's own words
        EXPECT_NE(fault.output.find("kcanvas-kernel-"), std::string::npos) << fault.output;
        int saved = 0;
        for (const auto& entry : std::filesystem::directory_iterator(work + "/kcanvas/rescued")) {
            ++saved;
            std::ifstream in(entry.path());
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            EXPECT_EQ(text, faulty_source) << entry.path();
            EXPECT_EQ(entry.path().extension(), ".cu");
        }
        EXPECT_EQ(saved, 1);
    }
}

// A recording's frame n is painted at t = n / fps: frame 2 of a 60 fps recording of the animated
// starter is the picture a 3-frame headless run (t = frame / 60) ends on.
TEST_F(GpuUserKernel, ARecordingsFramesArePaintedAtNOverFps) {
    const std::string dir = ::testing::TempDir() + "/kc_gpu_record_t";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string kernel = std::string(KC_ASSETS) + "/kernels/waves.cu";
    const auto rec =
        test::run("record --kernel " + kernel + " --size 128x96 --fps 60 --frames 3 --plain --out " + dir + "/frames/");
    ASSERT_EQ(rec.exit_code, 0) << rec.output;
    const auto head =
        test::run("--headless --kernel " + kernel + " --size 128x96 --frames 3 --out " + dir + "/headless.png");
    ASSERT_EQ(head.exit_code, 0) << head.output;
    const auto frame = test::load_png(dir + "/frames/frame-00002.png"), want = test::load_png(dir + "/headless.png");
    ASSERT_EQ(frame.pixels.size(), 128u * 96);
    EXPECT_TRUE(frame.pixels == want.pixels);
    const auto first = test::load_png(dir + "/frames/frame-00000.png");
    EXPECT_FALSE(first.pixels == want.pixels) << "waves.cu moves with t";
}

} // namespace
} // namespace kc
