// The teaching views on screen, through clicks and keys: the thread view fits at a whole zoom
// (each canvas pixel one square, no moiré), the SM view's legend says why its colours change,
// the inspector's tooltip stays with the mouse when the keyboard moves the panel's focus, and a
// path field never splices a new path into the old one.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/gui_script.h"

namespace kc::test {
namespace {

// The zoom the bar showed ("fit 139%") at each `text` command, in order (-1 where none).
std::vector<int> fit_percents(const std::string& output) {
    std::vector<int> percents;
    std::istringstream in(output);
    const std::regex fit(R"(^fit (\d+)%$)");
    for (std::string line; std::getline(in, line);) {
        if (line == "text:") percents.push_back(-1);
        std::smatch m;
        if (!percents.empty() && std::regex_match(line, m, fit)) percents.back() = std::stoi(m[1]);
    }
    return percents;
}

// Where the picture lies in the screenshot, shown 1:1: the top-left corner whose first row matches.
std::optional<std::pair<int, int>> find_picture(const LoadedImage& shot, const LoadedImage& picture) {
    for (int y = 0; y + picture.height <= shot.height; ++y)
        for (int x = 0; x + picture.width <= shot.width; ++x) {
            bool same = true;
            for (int i = 0; i < 64 && same; ++i) same = shot.pixels[y * shot.width + x + i] == picture.pixels[i];
            if (same) return std::pair{x, y};
        }
    return std::nullopt;
}

// 640x480 in the canvas area of a 1280x800 window fits at 139 %: the pixels view keeps that, the
// thread view (picked in the View combo) snaps to 100 %, where the screen shows the picture exactly.
TEST(GuiTeachView, TheThreadViewFitsAtAWholeZoomAndShowsEveryPixelOnce) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_whole_fit", "window 1280x800\nsize 640x480\nwait 3\nclick Fit\nwait 2\ntext\n"
                                                    "click View\nclick thread\nwait 3\ntext\n"
                                                    "screenshot {dir}/thread.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::vector<int> fits = fit_percents(run.result.output);
    ASSERT_EQ(fits.size(), 2u) << run.result.output;
    EXPECT_NE(fits[0] % 100, 0) << "the pixels view fits the area exactly";
    EXPECT_EQ(fits[1], 100) << "the thread view at a whole zoom";
    const LoadedImage shot = load_png(run.dir + "/thread.png");
    const LoadedImage want = headless_picture(run.dir, "thread", "640x480", "--view thread");
    ASSERT_EQ(want.pixels.size(), 640u * 480);
    const auto at = find_picture(shot, want);
    ASSERT_TRUE(at) << "the picture 1:1 somewhere on screen";
    int wrong = 0;
    for (int y = 0; y < want.height; ++y)
        for (int x = 0; x < want.width; ++x)
            wrong += !(shot.pixels[(at->second + y) * shot.width + at->first + x] == want.pixels[y * want.width + x]);
    EXPECT_EQ(wrong, 0) << "pixels shown other than painted (moiré, doubled rows)";
}

TEST(GuiTeachView, TheSmViewsLegendSaysItsColoursChangeFromFrameToFrame) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_sm_legend", "size 128x64\nwait 2\nclick View\nclick sm\nwait 2\n"
                                                    "hover Inspect on hover\nexpect the colours change from frame "
                                                    "to frame\nquit\n");
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
}

// The mouse over the canvas shows the tooltip beside it; Tab and an arrow key move the panel's
// keyboard focus, and the tooltip stays where it was (ImGui put it by the focused field).
TEST(GuiTeachView, TheInspectorsTooltipStaysWithTheMouseWhenTheKeyboardMovesTheFocus) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_tooltip_nav", "window 1280x800\nsize 640x480\nwait 3\nhover 900,400\nwait 3\n"
                                                      "where Inspected colour\nkey tab\nwait 2\nkey down\nwait 3\n"
                                                      "where Inspected colour\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::vector<std::pair<int, int>> corners;
    std::istringstream in(run.result.output);
    for (std::string line; std::getline(in, line);) {
        int x = 0, y = 0;
        if (std::sscanf(line.c_str(), "where Inspected colour: %d,%d", &x, &y) == 2) corners.push_back({x, y});
    }
    ASSERT_EQ(corners.size(), 2u) << run.result.output;
    EXPECT_NEAR(corners[0].first, 900, 60) << "beside the mouse";
    EXPECT_NEAR(corners[0].second, 400, 60);
    EXPECT_EQ(corners[1], corners[0]) << "still beside the mouse after the keys";
}

// Enter on a bad path, then Ctrl+A and a new path: the new one, whole (the field stays active
// with its path selected); a click into the field and typing replace the path too.
TEST(GuiTeachView, ANewPathTypedAfterABadOneReplacesItWhole) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_path_field",
                                "wait 2\nclick Image A\ntype /nope/bad.png\nkey enter\nwait 2\nkey ctrl+a\n"
                                "type /nope/other.png\nwait 2\nprint Image A\nkey escape\nwait 2\nclick Image A\n"
                                "type /nope/two.png\nwait 2\nprint Image A\nkey enter\nwait 2\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::vector<std::string> shown;
    std::istringstream in(run.result.output);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("widget Image A: ")) shown.push_back(line.substr(16));
    EXPECT_EQ(shown, (std::vector<std::string>{"/nope/other.png", "/nope/two.png"})) << run.result.output;
}

} // namespace
} // namespace kc::test
