// Exercises graded on a real GPU (NVRTC, the views counting accesses): every shipped solution
// passes and every starter fails, as on the CPU backend; a kernel for the default launch only fails
// with the launch named; the budget names the thread that read twice; the timed exercise reports
// the starter's and the solution's times; the command line grades on the GPU. Skipped, with the
// reason, where there is no CUDA GPU or no NVRTC.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/exercise/exercise.h"
#include "app/exercise/grader.h"
#include "gpu/cuda_device.h"
#include "gpu/user_kernel.h"
#include "tests/support/run_process.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

class GpuExerciseCases : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = cuda_unavailable_reason()) GTEST_SKIP() << "no CUDA device: " << *why;
        if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << "no NVRTC: " << *why;
    }
    static Exercise shipped(const std::string& name) {
        Exercise e;
        const auto why = load_exercise(name, e);
        EXPECT_EQ(why, std::nullopt) << *why;
        return e;
    }
    static GradeResult graded(const Exercise& e, const std::string& source) {
        GradeOptions o;
        o.backend = GradeBackend::Gpu;
        o.gpu = test::test_gpu();
        auto r = grade(e, source, "kernel.cu", o);
        if (const auto* refusal = std::get_if<GradeRefusal>(&r)) {
            ADD_FAILURE() << "refused: " << refusal->why;
            return {};
        }
        return std::get<GradeResult>(r);
    }
    static std::string replaced(std::string s, const std::string& from, const std::string& to) {
        const auto at = s.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) s.replace(at, from.size(), to);
        return s;
    }
};

class GpuExerciseTest : public GpuExerciseCases, public ::testing::WithParamInterface<std::string> {};

TEST_P(GpuExerciseTest, SolutionPassesAndStarterFailsOnTheGpu) {
    const Exercise e = shipped(GetParam());
    const GradeResult good = graded(e, e.solution);
    EXPECT_TRUE(good.passed) << GetParam() << ": " << good.summary << "\n" << good.compile_log;
    EXPECT_EQ(good.backend.rfind("gpu (", 0), 0u) << good.backend;
    if (e.max_writes) {
        EXPECT_GE(good.writes.count, 1u) << "the counted build counts nothing";
    }
    const GradeResult bad = graded(e, e.starter);
    EXPECT_TRUE(bad.compiled) << bad.compile_log;
    EXPECT_FALSE(bad.passed) << GetParam() << "'s starter passes on the GPU";
    EXPECT_EQ(bad.summary.rfind("fails with block ", 0), 0u) << bad.summary;
    if (e.timed) {
        ASSERT_TRUE(good.starter_ms && good.submission_ms) << good.timing_note;
        EXPECT_GT(*good.starter_ms, 0.0);
        EXPECT_GT(*good.submission_ms, 0.0);
        // The transposed starter's stores do not coalesce: a GPU takes longer for them.
        if (GetParam() == "transpose") {
            EXPECT_GT(*good.starter_ms, *good.submission_ms) << good.timing_note;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shipped, GpuExerciseTest,
                         ::testing::Values("gradient", "chess", "merge", "bounds", "grid-stride", "transpose",
                                           "histogram", "box-blur"),
                         [](const auto& info) {
                             std::string n = info.param;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST_F(GpuExerciseCases, AKernelForTheDefaultLaunchOnlyFailsWithTheLaunchNamed) {
    const Exercise e = shipped("chess");
    const GradeResult r =
        graded(e, replaced(e.solution, "block * (blockDim.x * blockDim.y) + thread", "block * 1000 + thread"));
    ASSERT_FALSE(r.passed);
    EXPECT_TRUE(r.launches[0].passed) << r.launches[0].problem;
    ASSERT_EQ(r.first_failed, 1u);
    EXPECT_EQ(r.summary.rfind("fails with block 32x8, grid 25x100 on 800x800: ", 0), 0u) << r.summary;
    EXPECT_EQ(r.launches[1].unwritten, 640000u - 640u * 256u);
}

TEST_F(GpuExerciseCases, TheBudgetNamesTheThreadThatReadTwice) {
    const Exercise e = shipped("merge");
    const GradeResult r =
        graded(e, replaced(e.solution, "const Pixel pa = load(a, i), pb = load(b, i);",
                           "const Pixel pa = (x == 37 && y == 9) ? load(a, load(a, i).a == 255 ? i : 0) : load(a, i);\n"
                           "    const Pixel pb = load(b, i);"));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.reads.count, 3u);
    EXPECT_EQ(r.launches[0].reads.thread, "thread (5,1,0) of block (1,1,0)");
}

TEST_F(GpuExerciseCases, TheCommandLineGradesOnTheGpu) {
    const auto r = test::run("exercise check gradient --backend gpu --json --kernel " + std::string(KC_ASSETS) +
                             "/exercises/gradient/solution.cu");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    EXPECT_EQ(j["passed"], true);
    EXPECT_EQ(j["backend"].get<std::string>().rfind("gpu (", 0), 0u);
}

} // namespace
} // namespace kc
