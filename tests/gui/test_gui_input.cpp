// The window driven the way a person drives it: the script's input verbs send real mouse and key
// events (through ImGuiIO and the GLFW backend's callbacks) to controls found by their visible
// labels. Nothing here sets the state behind a widget.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "gpu/registry.h"
#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

using test::has_line;
using test::run_script;

// The Operation combo, clicked open and its item clicked, for every op the CPU backend runs: the
// window then paints what `kcanvas --headless --op NAME` paints (an independent path, the CLI).
// The first op that reads image A loads the shipped rose.jpg (none was loaded): from then on the
// command line gets it as --image.
TEST(GuiInput, TheOperationComboSelectsEveryOp) {
    KC_SKIP_WITHOUT_DISPLAY();
    std::string script = "size 160x100\nwait 2\n";
    std::vector<const OpInfo*> ops;
    for (const OpInfo& op : op_registry()) {
        if (op.user_code) continue; // needs a CUDA GPU; the editor has its own tests
        ops.push_back(&op);
        script += "click Operation\nclick " + std::string(op.title) + "\nwait 3\nprint Operation\nsave {dir}/" +
                  std::string(op.name) + ".png\n";
    }
    script += "quit\n";
    const test::ScriptRun run = run_script("kc_gui_combo", script);
    const std::string& dir = run.dir;
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    for (const OpInfo* op : ops) {
        SCOPED_TRACE(std::string(op->name));
        EXPECT_TRUE(has_line(run.result.output, "widget Operation: " + std::string(op->title))) << run.result.output;
        const std::string want = dir + "/" + std::string(op->name) + "-headless.png";
        const std::string image = op->inputs & kUsesImageA ? " --image " KC_ASSETS "/rose.jpg" : "";
        const auto r = test::run("--headless --backend cpu --size 160x100 --frames 2 --op " + std::string(op->name) +
                                 image + " --out " + want);
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const auto shown = test::load_png(dir + "/" + std::string(op->name) + ".png");
        const auto expected = test::load_png(want);
        ASSERT_EQ(shown.width, 160);
        EXPECT_TRUE(shown.pixels == expected.pixels) << "the window did not paint " << op->name;
    }
}

// An open list hides what lies under it. The right quarter of each item's row holds no label
// text, so there a person sees one colour, the list's background, never the panel's text and
// fields underneath. (The chosen item, the first, is highlighted in a band of its own.)
TEST(GuiInput, AnOpenListHidesThePanelUnderIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    std::string script = "window 1280x800\nwait 2\nclick Operation\nwait 2\n";
    std::vector<std::string> items;
    for (const OpInfo& op : op_registry())
        if (op.index > 0 && items.size() < 6) items.emplace_back(op.title), script += "where " + items.back() + "\n";
    script += "screenshot {dir}/open.png\nquit\n";
    const test::ScriptRun run = run_script("kc_gui_opaque_list", script);
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto shot = test::load_png(run.dir + "/open.png");
    ASSERT_GT(shot.width, 0);
    for (const std::string& item : items) {
        SCOPED_TRACE(item);
        const std::string key = "where " + item + ": ";
        const std::size_t at = run.result.output.find(key);
        ASSERT_NE(at, std::string::npos) << run.result.output;
        int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        ASSERT_EQ(std::sscanf(run.result.output.c_str() + at + key.size(), "%d,%d %d,%d", &x0, &y0, &x1, &y1), 4);
        ASSERT_TRUE(x0 < x1 && y0 < y1 && x1 <= shot.width && y1 <= shot.height) << x0 << "," << y0 << " " << x1;
        const Pixel first = shot.pixels[std::size_t(y0 + 1) * shot.width + (x1 - 2)];
        int differing = 0;
        for (int y = y0 + 1; y < y1 - 1; ++y)
            for (int x = x1 - (x1 - x0) / 4; x < x1 - 1; ++x)
                differing += !(shot.pixels[std::size_t(y) * shot.width + x] == first);
        EXPECT_EQ(differing, 0) << "the row shows what lies under the list";
    }
}

// Esc with the combo open closes only the list: the app runs on, the op stays, and the next
// click still works.
TEST(GuiInput, EscapeClosesTheOpenComboAndNothingElse) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun run =
        run_script("kc_gui_escape", "size 160x100\nwait 2\n"
                                    "click Operation\nkey escape\nwait 2\nwidgets\n"
                                    "click Operation\nclick Checkerboard\nwait 2\nprint Operation\n"
                                    "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    // After Esc the panel's own controls are drawn again, not the list's items.
    const std::size_t listed = out.find("script: widgets");
    ASSERT_NE(listed, std::string::npos) << out;
    const std::string before = out.substr(0, listed);
    EXPECT_NE(before.find("widget Operation: Gradient"), std::string::npos) << out;
    EXPECT_EQ(before.find("widget Checkerboard:"), std::string::npos) << "the list stayed open:\n" << out;
    EXPECT_TRUE(has_line(out, "widget Operation: Checkerboard")) << out;
}

// A label the panel does not show is a script error that names what is shown; so is an
// ambiguous one.
TEST(GuiInput, AMissingOrAmbiguousLabelNamesTheCandidates) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun missing = run_script("kc_gui_missing", "wait 2\nclick No such button\nquit\n");
    EXPECT_NE(missing.result.exit_code, 0) << missing.result.output;
    EXPECT_NE(missing.result.output.find("no control labelled 'No such button'; shown: "), std::string::npos)
        << missing.result.output;
    EXPECT_NE(missing.result.output.find("'Operation'"), std::string::npos) << missing.result.output;
    const test::ScriptRun ambiguous = run_script("kc_gui_ambiguous", "wait 2\nclick Operation\nclick B\nquit\n");
    EXPECT_NE(ambiguous.result.exit_code, 0) << ambiguous.result.output;
    EXPECT_NE(ambiguous.result.output.find("'B' is ambiguous: 'Blend A and B', 'Box blur'"), std::string::npos)
        << ambiguous.result.output;
}

// A script that cannot run as written names its file, line, verb and value, and exits 2.
TEST(GuiInput, ScriptErrorsNameTheLineAndExit2) {
    KC_SKIP_WITHOUT_DISPLAY();
    for (const auto& [line, says] : std::vector<std::pair<std::string, std::string>>{
             {"weight 1e99", "weight 1e99: weight 1e+99 is not a number from 0 to 1"},
             {"weight", "weight : weight '' is not a number"},
             {"weight nan", "weight nan: weight nan is not a number from 0 to 1"}, // the range is gpu/param_limits.h's
             {"radius 17", "radius 17: radius 17 is not a whole number from 0 to 16"},
             {"cell abc", "cell abc: cell 'abc' is not a number"},
             {"wait 99999999999", "wait 99999999999: needs a whole number from 1 to 100000"},
             {"frobnicate 3", "frobnicate 3: unknown command"},
             {"key hyper+q", "key hyper+q: unknown key"},
             {"drag Blend weight x y", "drag Blend weight x y: DX and DY must be numbers"}}) {
        const test::ScriptRun run = run_script("kc_gui_script_error", "wait 1\n" + line + "\nquit\n");
        EXPECT_EQ(run.result.exit_code, 2) << line << "\n" << run.result.output;
        EXPECT_NE(run.result.output.find("script.txt:2: " + says), std::string::npos) << run.result.output;
    }
}

} // namespace
} // namespace kc
