// Choosing the GPU on a machine with one (KC_TEST_GPU picks which): --gpu N paints what the
// default paints, one past the last GPU is refused with the list, --list-gpus shows each GPU with
// its EGL device and working interop, and the painter runs CUDA where the EGL context is.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "app/core/gpu_list.h"
#include "gpu/cuda_device.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "tests/support/image_file.h"
#include "tests/support/run_process.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class GpuChoiceOnGpu : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = cuda_unavailable_reason()) GTEST_SKIP() << "no GPU: " << *why;
        gpus_ = cuda_gpus();
        ASSERT_LT(test::test_gpu(), int(gpus_.size())) << "KC_TEST_GPU names no CUDA device here";
    }
    // Runs kcanvas headless; skips when this machine has no headless EGL.
    test::ProcessResult headless(const std::string& args) {
        auto r = test::run("--headless " + args);
        if (r.exit_code == 1 && contains(r.output, "cannot render headless")) skip_reason_ = r.output;
        return r;
    }
    std::vector<GpuDescription> gpus_;
    std::string skip_reason_;
};

// The pictures kcanvas paints on GPU N and with no --gpu, pixel for pixel, on both CUDA backends
// and an op with float arithmetic (mandelbrot) as well as an exact one.
TEST_F(GpuChoiceOnGpu, GpuNPaintsWhatTheDefaultPaints) {
    const std::string dir = ::testing::TempDir() + "/kc_gpu_choice";
    std::filesystem::create_directories(dir);
    for (const char* op : {"gradient", "mandelbrot"}) {
        for (const char* backend : {"cuda-interop", "cuda-staged"}) {
            SCOPED_TRACE(std::string(op) + " " + backend);
            const std::string flags = std::string("--frames 3 --size 333x201 --op ") + op + " --backend " + backend;
            const std::string chosen = dir + "/chosen.png", plain = dir + "/default.png";
            const auto a = headless(flags + test::gpu_flag() + "--out " + chosen);
            if (!skip_reason_.empty()) GTEST_SKIP() << "no headless EGL: " << skip_reason_;
            ASSERT_EQ(a.exit_code, 0) << a.output;
            EXPECT_TRUE(contains(a.output, gpus_[test::test_gpu()].name)) << a.output; // the device it reports
            const auto b = headless(flags + " --out " + plain);
            ASSERT_EQ(b.exit_code, 0) << b.output;
            const auto pa = test::load_png(chosen), pb = test::load_png(plain);
            ASSERT_EQ(pa.width, 333);
            ASSERT_EQ(pa.height, 201);
            if (test::test_gpu() == 0 || gpus_[test::test_gpu()].name == gpus_[0].name) { // the same model
                EXPECT_TRUE(pa.pixels == pb.pixels) << "--gpu " << test::test_gpu() << " painted another picture";
            }
        }
    }
}

TEST_F(GpuChoiceOnGpu, OnePastTheLastGpuIsRefusedWithTheList) {
    const std::string past = std::to_string(gpus_.size()); // "1" on a one-GPU machine
    for (const std::string& args : {"--headless --gpu " + past, "bench --gpu " + past, "--gpu " + past}) {
        SCOPED_TRACE(args);
        const auto r = test::run_shell("XDG_DATA_HOME='" + test::test_data_home() + "' timeout 60 " +
                                       std::string(KCANVAS_BIN) + " " + args); // a missed refusal would run on
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_TRUE(contains(r.output, "there is no CUDA device " + past)) << r.output;
        for (const GpuDescription& g : gpus_)
            EXPECT_TRUE(contains(r.output, "GPU " + std::to_string(g.index) + ": " + describe_gpu(g))) << r.output;
    }
}

TEST_F(GpuChoiceOnGpu, ListGpusShowsEachGpuWithItsEglDeviceAndInterop) {
    const auto r = test::run("--list-gpus");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (const GpuDescription& g : gpus_) {
        const std::string head = "GPU " + std::to_string(g.index) + ": " + describe_gpu(g) + "\n";
        const std::size_t at = r.output.find(head);
        ASSERT_NE(at, std::string::npos) << r.output;
        const std::string next =
            r.output.substr(at + head.size(), r.output.find('\n', at + head.size()) - at - head.size());
        if (contains(next, "no EGL device")) GTEST_SKIP() << "no headless EGL: " << r.output;
        EXPECT_TRUE(next.starts_with("  EGL device ")) << next;
        EXPECT_TRUE(next.ends_with("; interop: yes")) << next;
    }
}

// In process: the EGL context on GPU N, the painter's CUDA with it (chosen or by default), and
// the GPU list the Device section shows.
TEST_F(GpuChoiceOnGpu, PainterPaintsWhereTheEglContextRuns) {
    std::unique_ptr<EglHeadlessContext> context;
    try {
        context = std::make_unique<EglHeadlessContext>(test::test_gpu());
    } catch (const std::exception& e) {
        GTEST_SKIP() << "no headless EGL on the CUDA device: " << e.what();
    }
    for (std::optional<int> chosen : {std::optional<int>(), std::optional<int>(test::test_gpu())}) {
        FramePainter painter(std::nullopt, chosen);
        EXPECT_EQ(painter.backend(), Backend::CudaInterop) << painter.unavailable_reason(Backend::CudaInterop);
        EXPECT_EQ(painter.cuda_device(), test::test_gpu());
        EXPECT_EQ(painter.gl_gpus(), std::vector<int>{test::test_gpu()});
        const auto lines = device_gpu_lines(gpus_, painter.gl_gpus(), painter.cuda_device(), gl_renderer_name());
        ASSERT_EQ(lines.size(), gpus_.size());
        EXPECT_TRUE(lines[test::test_gpu()].ends_with("runs OpenGL; CUDA paints here")) << lines[test::test_gpu()];
    }
}

} // namespace
} // namespace kc
