// The A/B split on a GPU (skips without one): `kcanvas --ab A B --headless --json` on each CUDA
// backend reports both sides timed by CUDA events, 0 differing pixels and a ratio within the
// noise for two identical sides, and the references' count for gradient against checkerboard.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "gpu/cuda_device.h"
#include "tests/support/reference.h"
#include "tests/support/run_process.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/kc_gpu_ab_" + name;
    std::ofstream(path) << text;
    return path;
}

std::string preset(const std::string& name, const std::string& op, int width = 640, int height = 360) {
    return write_temp(name, R"({"kcanvas_preset": 1, "op": ")" + op + R"(", "canvas": {"width": )" +
                                std::to_string(width) + R"(, "height": )" + std::to_string(height) +
                                R"(}, "params": {"cell": 40}})");
}

class GpuAb : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        if (auto why = cuda_unavailable_reason()) GTEST_SKIP() << "no CUDA device: " << *why;
    }
    // The run's JSON; skips where this machine has no headless EGL for the backend.
    nlohmann::json ab(const std::string& a, const std::string& b) {
        const auto r = test::run("--ab " + a + " " + b + " --headless --json --frames 40 --backend " + GetParam() +
                                 " --gpu " + std::to_string(test::test_gpu()));
        if (r.exit_code == 1 && r.output.find("cannot render headless") != std::string::npos) {
            skipped_ = r.output;
            return {};
        }
        EXPECT_EQ(r.exit_code, 0) << r.output;
        const std::size_t at = r.output.find("{\n");
        if (at == std::string::npos) {
            ADD_FAILURE() << r.output;
            return {};
        }
        return nlohmann::json::parse(r.output.substr(at), nullptr, false);
    }
    std::string skipped_;
};

TEST_P(GpuAb, IdenticalSidesAndDifferentOnesOnTheGpu) {
    const std::string grad = preset("grad.json", "gradient"), chess = preset("chess.json", "checkerboard");
    // Identical sides at 4K, a kernel of about 24 us on the H200: at 640x360 (4 us) the events'
    // times carried which side went first (B 2-9 % slower there) more than the kernels.
    const std::string grad_4k = preset("grad_4k.json", "gradient", 3840, 2160);
    const auto same = ab(grad_4k, grad_4k);
    if (!skipped_.empty()) GTEST_SKIP() << skipped_;
    EXPECT_EQ(same["backend"], GetParam());
    EXPECT_EQ(same["timed_by"], "CUDA events");
    EXPECT_EQ(same["diff_pixels"], 0);
    // Every frame is timed where the path waits for its copy (staged); the interop path's event
    // ring never waits, so frames whose events are still pending give no sample (9 of 40 on the H200).
    for (const char* side : {"a", "b"}) {
        const int samples = same[side]["kernel"]["samples"].get<int>();
        EXPECT_GE(samples, 5) << side;
        EXPECT_LE(samples, 40) << side;
    }
    EXPECT_LE(same["ratio_low"].get<double>(), 1.0) << same.dump();
    EXPECT_GE(same["ratio_high"].get<double>(), 1.0) << same.dump();
    long long expected = 0;
    for (int y = 0; y < 360; ++y)
        for (int x = 0; x < 640; ++x) {
            const ref::Rgb g = ref::gradient(x, y, 640, 360), c = ref::checkerboard(x, y, 40);
            expected += g.r != c.r || g.g != c.g || g.b != c.b;
        }
    const auto differ = ab(grad, chess);
    EXPECT_EQ(differ["diff_pixels"].get<long long>(), expected);
    EXPECT_GT(differ["ratio_b_over_a"].get<double>(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuAb, ::testing::Values("cuda-staged", "cuda-interop"));

} // namespace
} // namespace kc
