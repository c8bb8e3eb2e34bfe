// Exercises in the window, driven as a student drives them (issue 28): the Exercises section lists
// the shipped ones, Open puts the starter in the editor with the exercise's launch, Check grades
// the editor's text on a worker thread while the window goes on answering, and what the student
// sees is asserted: the failing launch named with its counts for the starter, the ✓ after the
// solution passes (kept in the data dir, shown again after a restart), and the "Replace the
// kernel?" question before Show solution replaces typed code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "tests/support/gui_script.h"
#include "tests/support/time_factor.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

struct ExerciseRun {
    fs::path dir;  // the script, and what it saves
    fs::path data; // XDG_DATA_HOME: kcanvas/exercise-progress.json lands here
    test::ProcessResult result;
    fs::path progress() const { return data / "kcanvas" / "exercise-progress.json"; }
};

// Runs the window (CPU backend) on `script` with a data dir of the run's own; `fresh`: empty it
// first (false: a restart that finds what the last run kept).
ExerciseRun run_exercise(const std::string& name, const std::string& script, bool fresh = true,
                         const std::string& args = "") {
    ExerciseRun run{fs::path(::testing::TempDir()) / name, {}, {}};
    run.data = run.dir / "data";
    if (fresh) fs::remove_all(run.dir);
    fs::create_directories(run.data);
    std::string text = script;
    for (std::size_t at; (at = text.find("{dir}")) != std::string::npos;) text.replace(at, 5, run.dir.string());
    std::ofstream(run.dir / "script.txt") << text;
    run.result = test::run_shell("cd '" + run.dir.string() + "' && " + test::test_env(run.data.string()) +
                                 "timeout 600 " + KCANVAS_BIN + " --backend cpu " + args + " --script script.txt");
    return run;
}

// How long a check may take: a compile and several launches in the sandbox, on a loaded machine.
std::string await(const std::string& text) { return fmt::format("await {} {}\n", 240 * test::time_factor(), text); }

std::string file_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::string kOpenGradient = "wait 2\nclick Exercises\nclick Open gradient\nwait 3\n";
const std::string kTitle = "The tutorial's gradient, one thread per pixel in 2d";

// The gradient starter paints with threadIdx alone and constant colours: on its first launch
// (block 32x8 over 800x800) every block paints the same 32x8 corner. Counted here from the
// tutorial's formulas, independently of the grader: which corner pixels equal the target's,
// which differ, and that the rest are unwritten.
struct Counts {
    long long wrong = 0, unwritten = 0;
};
Counts gradient_starter_counts() {
    constexpr int w = 800, h = 800;
    Counts c;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (x >= 32 || y >= 8) {
                ++c.unwritten;
                continue;
            }
            const int blue = 255 - 255 * y / h, green = 255 - 255 * x / w, red = 128 - 128 * y / h;
            if (blue != 255 || green != 255 || red != 128) ++c.wrong;
        }
    return c;
}

TEST(GuiExercises, TheStarterFailsWithItsLaunchNamedAndTheDiffCounted) {
    KC_SKIP_WITHOUT_DISPLAY();
    const Counts want = gradient_starter_counts();
    ASSERT_GT(want.wrong, 0);
    const auto run = run_exercise(
        "kc_gui_exercise_starter",
        kOpenGradient + "expect " + kTitle + "\nexpect at most 1 global read per thread\nprint Kernel source\n" +
            "click Check\nexpect Checking...\nprint Check\n"
            // The window answers while the check runs: a hint opens, and no second check starts.
            "click Show a hint\nexpect Hint 1: threadIdx alone\nexpect Checking...\nprint Check\n" +
            await("Not yet: your kernel fails with") + "text\nprint Check\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    // Open put the starter in the editor.
    EXPECT_NE(
        out.find(
            "widget Kernel source: // Gradient: the tutorial's drawGradient, one thread per pixel in 2d (an exercise)"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("widget Check:  (disabled)"), std::string::npos) << "a second check could start\n" << out;
    EXPECT_TRUE(test::has_line(out, "widget Check: ")) << "Check stays disabled after the check\n" << out;
    // The first launch is named, with the counts of this test's own.
    const std::string failing = fmt::format(
        "fails with block 32x8, grid 25x100 on 800x800: {} pixels differ, {} unwritten", want.wrong, want.unwritten);
    EXPECT_NE(out.find(failing), std::string::npos) << failing << "\n" << out;
    EXPECT_NE(out.find(fmt::format("{} pixels differ (red), {} unwritten (hatched)", want.wrong, want.unwritten)),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("Where it differs with block 32x8, grid 25x100 on 800x800:"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(run.progress())) << "a failed check recorded a pass";
}

TEST(GuiExercises, TheSolutionPassesItsTickIsKeptAndShownAfterARestart) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_exercise("kc_gui_exercise_pass",
                                  kOpenGradient +
                                      "expect-not \u2713\nclick Show solution\n"
                                      "wait 3\nprint Kernel source\nclick Check\n" +
                                      await("Passed \u2713: your kernel passes") + "expect " + kTitle +
                                      "  \u2713 passed\n"
                                      "expect Your pass is kept in {dir}/data/kcanvas/exercise-progress.json\n"
                                      "click All exercises\nwait 2\n"
                                      "expect \u2713 " +
                                      kTitle + "\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    // No starter was typed over: the solution replaced it without asking.
    EXPECT_NE(run.result.output.find("(the solution)\nextern"), std::string::npos) << run.result.output;
    const std::string kept = file_text(run.progress());
    EXPECT_NE(kept.find("\"gradient\""), std::string::npos) << kept;

    // A restart reads the passes: the ✓ is beside the gradient, and only there.
    const auto again = run_exercise("kc_gui_exercise_pass",
                                    "wait 2\nclick Exercises\nexpect \u2713 " + kTitle + "\ntext\nquit\n", false);
    ASSERT_EQ(again.result.exit_code, 0) << again.result.output;
    const std::string& out = again.result.output;
    std::size_t ticks = 0;
    for (std::size_t at = 0; (at = out.find("\u2713", at)) != std::string::npos; at += 3) ++ticks;
    EXPECT_EQ(ticks, 2u) << "the ✓ beside the gradient, in `expect` and in `text`\n" << out;
}

// The bounds starter is right on 800x600 (block 32x8 divides it) and writes out of range on 810x610:
// the window names that launch, with the write checked mode refused.
TEST(GuiExercises, AnOutOfRangeWriteIsNamedWithItsLaunch) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_exercise("kc_gui_exercise_bounds", "wait 2\nclick Exercises\nclick Open bounds\nwait 3\n"
                                                            "click Check\n" +
                                                                await("Not yet: your kernel fails with block 32x8, "
                                                                      "grid 26x77 on 810x610") +
                                                                "expect Out of range: thread (\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
}

TEST(GuiExercises, ShowSolutionOverTypedCodeAsksFirst) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string asks = "Loading the solution of exercise gradient replaces it";
    const auto run =
        run_exercise("kc_gui_exercise_ask", kOpenGradient +
                                                "click Kernel source\ntype // my own work\nwait 2\n"
                                                "click Show solution\nexpect " +
                                                asks + "\nclick Cancel\nwait 3\nexpect-not " + asks +
                                                "\nprint Kernel source\n"
                                                "click Show solution\nexpect " +
                                                asks + "\nclick Discard\nwait 3\nprint Kernel source\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    std::vector<std::string> shown;
    for (std::size_t at = 0; (at = out.find("widget Kernel source: ", at)) != std::string::npos; ++at)
        shown.push_back(out.substr(at, out.find("\nscript:", at) - at));
    ASSERT_EQ(shown.size(), 2u) << out;
    EXPECT_NE(shown[0].find("// my own work"), std::string::npos) << "Cancel lost the typed code\n" << shown[0];
    EXPECT_EQ(shown[1].find("// my own work"), std::string::npos) << shown[1];
    EXPECT_NE(shown[1].find("(the solution)"), std::string::npos) << shown[1];
}

} // namespace
} // namespace kc
