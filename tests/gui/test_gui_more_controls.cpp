// The rest of the panel's controls, each used through real input (the script's click, drag, type
// and key verbs) and checked by what the window then shows or paints.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

using test::printed_value;
using test::run_script;

bool shows_widget(const std::string& output, const std::string& label) {
    return output.find("widget " + label + ":") != std::string::npos;
}

// The text between two "script:" echo lines: what a `widgets` or `text` verb printed.
std::string printed_before(const std::string& output, const std::string& echo, std::size_t from = 0) {
    const std::size_t at = output.find("script: " + echo, from);
    if (at == std::string::npos) return {};
    const std::size_t start = output.rfind("script: ", at == 0 ? 0 : at - 1);
    return output.substr(start == std::string::npos ? 0 : start, at - (start == std::string::npos ? 0 : start));
}

// Image A typed into its field and loaded with Enter, then "Canvas size = image A" resizes the
// canvas to the image's own size.
TEST(GuiMoreControls, CanvasSizeFromImageA) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_more_fit", std::string("size 160x100\nwait 2\nclick Image A\ntype ") + KC_ASSETS +
                                                   "/logo.png\nkey enter\nwait 3\nclick Canvas size = image A\nwait 3\n"
                                                   "save {dir}/fitted.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto fitted = test::load_png(run.dir + "/fitted.png");
    EXPECT_EQ(fitted.width, 480); // assets/logo.png is 480x360
    EXPECT_EQ(fitted.height, 360);
}

// The kernel editor's file field and "Load .cu": the file's text lands in the editor; "Editor
// beside the canvas" off moves the editor into the panel; the Prelude opens.
TEST(GuiMoreControls, KernelFileLoadLargerWindowAndPrelude) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string dir = ::testing::TempDir() + "/kc_more_kernel_src";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/mine.cu") << "// my own kernel, loaded by a test\n";
    const auto run =
        run_script("kc_more_kernel", "op user_kernel\nwait 2\nclick File\ntype " + dir +
                                         "/mine.cu\nclick Load .cu\nwait 3\nprint Kernel source\n"
                                         "click Prelude\nwait 2\nexpect kcanvas prelude: compiled before your kernel\n"
                                         "click Editor beside the canvas\nwait 3\nwidgets\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_NE(out.find("widget Kernel source: // my own kernel, loaded by a test"), std::string::npos) << out;
    const std::string listed = printed_before(out, "widgets");
    EXPECT_TRUE(shows_widget(listed, "Editor beside the canvas")) << out;
    EXPECT_NE(listed.find("widget Editor beside the canvas: off"), std::string::npos) << out;
    EXPECT_TRUE(shows_widget(listed, "Kernel source")) << "the editor is gone:\n" << out;
}

// Collapsing headers close when clicked: their controls and text are no longer shown.
TEST(GuiMoreControls, HeadersCloseAndOpen) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_more_headers", "wait 2\nexpect Mapping 2d\nclick Indexing\nwait 2\n"
                                                   "expect-not Mapping 2d\nclick Operation and parameters\nwait 2\n"
                                                   "widgets\nclick Operation and parameters\nwait 2\nprint Operation\n"
                                                   "click Indexing\nexpect Mapping 2d\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_FALSE(shows_widget(printed_before(out, "widgets"), "Operation")) << out;
    EXPECT_EQ(printed_value(out, "Operation"), "Gradient") << out;
}

// A typed Grid y (auto grid off), committed with Enter, paints only that many rows of blocks, as
// the command line's --grid does; a typed Height resizes the canvas.
TEST(GuiMoreControls, TypedGridYAndHeight) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_more_grid", "size 160x100\nwait 2\nclick Auto grid\nclick Grid y\nkey ctrl+a\n"
                                                "type 5\nkey enter\nwait 3\nsave {dir}/grid.png\n"
                                                "click Canvas\nclick Height\nkey ctrl+a\ntype 64\nkey enter\nwait 3\n"
                                                "save {dir}/height.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string want = run.dir + "/grid-cli.png";
    const auto cli = test::run("--headless --backend cpu --frames 2 --size 160x100 --grid 5x5 --out " + want);
    ASSERT_EQ(cli.exit_code, 0) << cli.output;
    EXPECT_TRUE(test::load_png(run.dir + "/grid.png").pixels == test::load_png(want).pixels);
    const auto height = test::load_png(run.dir + "/height.png");
    EXPECT_EQ(height.width, 160);
    EXPECT_EQ(height.height, 64);
}

// VSync, the panel's side, the step speed slider, Julia's k and the frame breakdown.
TEST(GuiMoreControls, TogglesSlidersAndTheFrameBreakdown) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script(
        "kc_more_toggles",
        "size 200x120\nwait 2\nclick VSync\nwait 1\nprint VSync\n"
        "click Where the frame goes\nwheel -10 150,400\nwait 2\nexpect paint: map + launch\n"
        "click Step through blocks\nwait 1\ndrag Blocks / second 60 0\nwait 1\nprint Blocks / second\n"
        "click Step through blocks\nwait 1\n"
        "click Operation\nclick Julia\nwait 2\nsave {dir}/julia.png\ndrag Julia k re 40 0\nwait 2\nprint Julia k re\n"
        "save {dir}/julia_k.png\nscreenshot {dir}/left.png\n"
        "click Window and view\nclick Panel on the right\nwait 3\nprint Panel on the right\nscreenshot "
        "{dir}/right.png\n"
        "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_EQ(printed_value(out, "VSync"), "off");
    EXPECT_NE(printed_value(out, "Blocks / second"), "") << out;
    EXPECT_NE(printed_value(out, "Julia k re"), "-0.8") << out;
    EXPECT_FALSE(test::load_png(run.dir + "/julia.png").pixels == test::load_png(run.dir + "/julia_k.png").pixels)
        << "dragging Julia k did not change the picture";
    EXPECT_EQ(printed_value(out, "Panel on the right"), "on");
    // The panel moved: the window's left edge now shows the canvas' surroundings, not the panel.
    const auto left = test::load_png(run.dir + "/left.png"), right = test::load_png(run.dir + "/right.png");
    ASSERT_EQ(left.width, right.width);
    long changed = 0;
    for (int y = 0; y < left.height; ++y)
        for (int x = 0; x < 40; ++x)
            changed += left.pixels[std::size_t(y) * left.width + x] != right.pixels[std::size_t(y) * right.width + x];
    EXPECT_GT(changed, 40L * left.height / 4);
}

} // namespace
} // namespace kc
