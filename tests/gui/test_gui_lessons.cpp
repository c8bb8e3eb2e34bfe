// Lessons in the window, driven as a student drives them: --lesson opens one beside the canvas,
// the Lessons section opens a shipped one, Next and Back move between steps, and a question is
// answered (typed, or a click on the canvas) before the reveal shows the answer, why, and the
// step's picture in its own view.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

using test::run_script;

// The window's canvas saved as NAME.png equals `kcanvas --headless` with these flags at 800x800.
void expect_canvas(const test::ScriptRun& run, const std::string& name, const std::string& flags) {
    SCOPED_TRACE(name + ": " + flags);
    const auto shown = test::load_png(run.dir + "/" + name + ".png");
    ASSERT_GT(shown.width, 0) << run.result.output;
    const auto want = test::headless_picture(run.dir, name, "800x800", flags);
    EXPECT_TRUE(shown.pixels == want.pixels) << "the window's picture differs from `kcanvas " << flags << "`";
}

TEST(GuiLessons, AStudentAnswersFirstThenSeesTheAnswerWhyAndThePicture) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_lesson",
                                "wait 2\n"
                                "expect Step 1 of 7\nexpect drawGradient\n"
                                "expect Question: Which block paints pixel (500, 420)?\n"
                                "expect-not Why:\n"
                                "click Your answer\ntype 16, 4\nclick Answer\n"
                                "expect Right: block (16, 4)\nexpect Why: thread (0, 10) of block (16, 4)\n"
                                "click Next\nwait 2\n"
                                "expect Step 2 of 7\nexpect Whose pixel is it?\n"
                                "expect Click the pixel that thread (3, 2) of block (1, 0) paints.\n"
                                "save {dir}/asked.png\n"
                                "click Your answer\ntype 1, 1\nclick Answer\nwait 2\n"
                                "expect Not quite: the answer is pixel (303, 1)\n"
                                "save {dir}/revealed.png\n"
                                "click Back\nwait 2\nexpect Step 1 of 7\nexpect-not Right:\nquit\n",
                                "--backend cpu --lesson tutorial");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    // Asked: the plain picture (the block view would give the answer away); revealed: the step's block view.
    expect_canvas(run, "asked", "--tutorial");
    expect_canvas(run, "revealed", "--tutorial --view block");
}

TEST(GuiLessons, TheLessonsSectionOpensAShippedLesson) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_lesson_menu", "wait 2\nclick Lessons\nprint Open tutorial\nclick Open warps\nwait 2\n"
                                         "expect Step 1 of 6\nexpect Warps in a 32x8 block\n"
                                         "click Next\nclick Next\nwait 2\nexpect Step 3 of 6\nexpect Columns\n"
                                         "click Close lesson\nwait 1\nprint Open occupancy\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_TRUE(test::has_line(run.result.output, "widget Open occupancy: ")) << run.result.output;
}

// At twice the UI scale in a small window the caption and question still show whole (wrapped).
TEST(GuiLessons, TheCaptionAndQuestionShowAtTwiceTheScale) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_lesson_scale",
                                "window 1200x800\nwait 2\nexpect 640,000 threads, one per pixel.\n"
                                "expect Question: Which block paints pixel (500, 420)? Type its blockIdx x, y.\n"
                                "click Your answer\ntype 16 4\nclick Answer\nexpect Right: block (16, 4)\nquit\n",
                                "--backend cpu --ui-scale 200 --lesson tutorial");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
}

TEST(GuiLessons, ABadLessonIsRefusedBeforeTheWindowOpens) {
    const auto r = test::run("--lesson no-such-lesson");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--lesson: 'no-such-lesson' is neither a lesson file nor a shipped lesson"),
              std::string::npos)
        << r.output;
}

} // namespace
} // namespace kc
