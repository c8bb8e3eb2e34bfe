// Lessons in the window, driven as a student drives them: --lesson opens one beside the canvas,
// the Lessons section opens a shipped one, Next and Back move between steps, and a question is
// answered (typed, or a click on the canvas) before the reveal shows the answer, why, and the
// step's picture in its own view.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

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
                                         "print Inspect on hover\nclick Close lesson\nwait 1\nprint Open occupancy\n"
                                         "print Inspect on hover\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_TRUE(test::has_line(run.result.output, "widget Open occupancy: ")) << run.result.output;
    // The inspector, off while a question waits (it would answer it), is back once the lesson closes.
    EXPECT_TRUE(test::has_line(run.result.output, "widget Inspect on hover: off")) << run.result.output;
    EXPECT_EQ(test::printed_value(run.result.output, "Inspect on hover"), "on") << run.result.output;
}

// The pixels the window said were clicked ("You clicked pixel (X, Y)."), in order.
std::vector<std::pair<int, int>> clicked_pixels(const std::string& output) {
    std::vector<std::pair<int, int>> pixels;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        int x = 0, y = 0;
        if (std::sscanf(line.c_str(), "You clicked pixel (%d, %d).", &x, &y) == 2) pixels.push_back({x, y});
    }
    return pixels;
}

// The pixels the status bar named under the mouse ("cursor (X, Y)"), in order.
std::vector<std::pair<int, int>> cursor_pixels(const std::string& output) {
    std::vector<std::pair<int, int>> pixels;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        int x = 0, y = 0;
        const auto at = line.find("cursor (");
        if (at != std::string::npos && std::sscanf(line.c_str() + at, "cursor (%d, %d)", &x, &y) == 2)
            pixels.push_back({x, y});
    }
    return pixels;
}

// "Click the pixel thread (3, 2) of block (1, 0) paints": a first run hovers two canvas points and
// reads the pixels under them from the status bar, to learn where pixels lie on screen; the
// second, laid out the same, clicks the pixel the tutorial's formula gives, i = 1000*1 + 2*50 + 3
// = 1103, so (303, 1), and is told it is right.
TEST(GuiLessons, AClickOnTheCanvasAnswersWhichPixel) {
    KC_SKIP_WITHOUT_DISPLAY();
    // Zoomed in about pixel (303, 1), so a pixel is several points wide, as a student would.
    const std::string start = "window 1280x800\nwait 2\nclick Next\nwait 3\nwheel 6 744,1\nwait 3\n";
    const auto probe =
        run_script("kc_gui_lesson_probe", start + "hover 700,300\nwait 2\ntext\nhover 900,500\nwait 2\ntext\nquit\n",
                   "--backend cpu --lesson tutorial");
    ASSERT_EQ(probe.result.exit_code, 0) << probe.result.output;
    const auto p = cursor_pixels(probe.result.output);
    ASSERT_GE(p.size(), 2u) << probe.result.output;
    const auto [a, b] = std::pair{p.front(), p.back()};
    ASSERT_NE(a.first, b.first);
    // Screen = origin + pixel * scale, from the two clicks (each somewhere inside its pixel).
    const double scale = (900.0 - 700.0) / (b.first - a.first); // points a pixel, about
    const int x = static_cast<int>(700 + (303 - a.first + 0.5) * scale);
    const int y = static_cast<int>(300 + (1 - a.second + 0.5) * scale);
    const auto run = run_script("kc_gui_lesson_click",
                                start + fmt::format("click {},{}\nwait 2\ntext\nclick Answer\nwait 2\n", x, y) +
                                    "expect Right: pixel (303, 1)\nquit\n",
                                "--backend cpu --lesson tutorial");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(clicked_pixels(run.result.output), (std::vector<std::pair<int, int>>{{303, 1}})) << run.result.output;
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
