// Each panel control used as a person uses it (clicks, drags, keys through the script's input
// verbs), checked against an independent path: the same settings given to the command line
// (`kcanvas --headless`) must paint the same picture the window shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"
#include "tests/support/reference.h"

namespace kc {
namespace {

using test::printed_value;
using test::run_script;

constexpr const char* kSize = "160x100";

test::LoadedImage headless_picture(const std::string& dir, const std::string& name, const std::string& flags) {
    return test::headless_picture(dir, name, kSize, flags);
}

// The window's canvas saved as NAME.png by the script equals the command line's picture.
void expect_same_as_cli(const test::ScriptRun& run, const std::string& name, const std::string& flags) {
    SCOPED_TRACE(name + ": " + flags);
    const auto shown = test::load_png(run.dir + "/" + name + ".png");
    ASSERT_GT(shown.width, 0) << run.result.output;
    const auto want = headless_picture(run.dir, name, flags);
    EXPECT_EQ(shown.width, want.width);
    EXPECT_TRUE(shown.pixels == want.pixels) << "the window's picture differs from `kcanvas " << flags << "`";
}

std::string pick_op(const std::string& title) { return "click Operation\nclick " + title + "\nwait 2\n"; }

// Sliders dragged with the mouse: blend weight to its left end, then cell size, level and radius
// somewhere along the way; the value the slider shows is what the command line gets.
TEST(GuiControls, DraggedSlidersSetWhatTheCommandLineSets) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script(
        "kc_gui_sliders", std::string("size ") + kSize + "\nwait 2\n" + pick_op("Blend A and B") +
                              "drag Blend weight -2000 0\nwait 2\nprint Blend weight\n"
                              "save {dir}/weight.png\n"
                              "drag Cell size 37 0\nwait 2\nprint Cell size\nsave {dir}/cell.png\n" +
                              pick_op("Threshold") + "drag Level 23 0\nwait 2\nprint Level\nsave {dir}/level.png\n" +
                              pick_op("Box blur") +
                              "drag Radius -30 0\nwait 2\nprint Radius\nsave {dir}/radius.png\n"
                              "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    EXPECT_EQ(printed_value(out, "Blend weight"), "0") << out;
    const std::string cell = printed_value(out, "Cell size"), level = printed_value(out, "Level"),
                      radius = printed_value(out, "Radius");
    EXPECT_NE(cell, "80") << "the drag did not move the cell size slider";
    EXPECT_NE(level, "128") << "the drag did not move the level slider";
    // Blend, the first op picked that reads image A, loaded the shipped rose.jpg (none was loaded).
    const std::string rose = std::string(" --image ") + KC_ASSETS + "/rose.jpg";
    expect_same_as_cli(run, "weight", "--op blend --weight 0" + rose);
    expect_same_as_cli(run, "cell", "--op blend --weight 0 --cell " + cell + rose);
    expect_same_as_cli(run, "level", "--op threshold --level " + level + rose);
    expect_same_as_cli(run, "radius", "--op box_blur --radius " + radius + rose);
}

// The Launch section: the Mapping and View combos, the pixels-per-thread radio and the tutorial
// and default buttons, each clicked.
TEST(GuiControls, LaunchCombosRadiosAndPresetsPaintWhatTheCommandLinePaints) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_launch", std::string("size ") + kSize +
                                        "\nwait 2\n"
                                        "click Mapping\nclick linear\nwait 2\nprint Mapping\n"
                                        "click View\nclick block\nwait 2\nprint View\nsave {dir}/linear.png\n"
                                        "click Tutorial\nwait 2\nsave {dir}/tutorial.png\n"
                                        "click Default\nwait 2\nprint Mapping\n"
                                        "click View\nclick pixels\nclick 4\nwait 2\nsave {dir}/ppt4.png\n"
                                        "click Auto grid\nclick 1\nwait 2\nprint Auto grid\n"
                                        "save {dir}/fixed_grid.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("widget Mapping: linear"), std::string::npos) << run.result.output;
    EXPECT_EQ(printed_value(run.result.output, "Mapping"), "2d") << "Default did not reset the mapping";
    expect_same_as_cli(run, "linear", "--mapping linear --view block");
    expect_same_as_cli(run, "tutorial", "--tutorial --view block");
    expect_same_as_cli(run, "ppt4", "--pixels-per-thread 4");
    // The auto grid for 4 pixels per thread, kept (unticked) for 1: a quarter of the width is painted.
    EXPECT_EQ(printed_value(run.result.output, "Auto grid"), "off");
    expect_same_as_cli(run, "fixed_grid", "--grid 2x13 --pixels-per-thread 1");
}

// Blend's Integer arithmetic box (the tutorial's a*3/4 + b/4): clicked, the picture is the
// command line's --integer; clicked again, the rounded blend's.
TEST(GuiControls, IntegerArithmeticBoxPaintsWhatIntegerPaints) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_integer", std::string("size ") + kSize + "\nwait 2\n" + pick_op("Blend A and B") +
                                         "click Integer arithmetic\nwait 2\nprint Integer arithmetic\n"
                                         "save {dir}/integer.png\nclick Integer arithmetic\nwait 2\n"
                                         "save {dir}/rounded.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(printed_value(run.result.output, "Integer arithmetic"), "on");
    const std::string rose = std::string(" --image ") + KC_ASSETS + "/rose.jpg";
    expect_same_as_cli(run, "integer", "--op blend --integer" + rose);
    expect_same_as_cli(run, "rounded", "--op blend" + rose);
}

// Mandelbrot: the Iterations slider and the Double precision box change the picture as the
// command line's --iter and --double do; the wheel zooms and Reset view comes back to the whole set.
TEST(GuiControls, FractalControlsAndResetView) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_fractal", "size 200x200\nwait 2\n" + pick_op("Mandelbrot") +
                                                      "drag Iterations -2000 0\nwait 2\nprint Iterations\n"
                                                      "click Double precision\nwait 2\nprint Double precision\n"
                                                      "save {dir}/iter.png\n"
                                                      "click Reset view\nwait 2\nsave {dir}/reset.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(printed_value(run.result.output, "Iterations"), "1");
    EXPECT_EQ(printed_value(run.result.output, "Double precision"), "on");
    // Reset view fits the set's 3 units into the canvas' smaller side: --zoom 4 at 200 pixels.
    const auto reset = test::load_png(run.dir + "/reset.png");
    const std::string want = run.dir + "/reset-headless.png";
    const auto r = test::run("--headless --backend cpu --frames 2 --size 200x200 --op mandelbrot --iter 1 --double "
                             "--zoom 4 --out " +
                             want);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(reset.pixels == test::load_png(want).pixels);
    const auto iter = test::load_png(run.dir + "/iter.png");
    const std::string want_iter = run.dir + "/iter-headless.png";
    ASSERT_EQ(test::run("--headless --backend cpu --frames 2 --size 200x200 --op mandelbrot --iter 1 --double --out " +
                        want_iter)
                  .exit_code,
              0);
    EXPECT_TRUE(iter.pixels == test::load_png(want_iter).pixels);
}

// Step mode: ticked, paused, then "+1 block" twice paints exactly two more blocks, in launch
// order (blockIdx.x fastest); every other pixel stays hatched.
TEST(GuiControls, StepModePaintsOneBlockPerClick) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_step", "size 128x64\nwait 2\n"
                                  "click Step through blocks\nclick Pause\nwait 2\nsave {dir}/paused.png\n"
                                  "click +1 block\nclick +1 block\nwait 2\nsave {dir}/two_more.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    // Block 32x8 on 128x64: 4 x 8 blocks, so that a slow machine's frames (step mode paints
    // blocks per second of frame time) cannot paint them all before the Pause click lands; the
    // painted ones must be the first N in launch order.
    auto painted_blocks = [](const test::LoadedImage& im) {
        int blocks = 0;
        for (int b = 0; b < 32; ++b) {
            const int x0 = b % 4 * 32, y0 = b / 4 * 8;
            int painted = 0;
            for (int y = y0; y < y0 + 8; ++y)
                for (int x = x0; x < x0 + 32; ++x)
                    painted += im.pixels[std::size_t(y) * 128 + x] != uncovered_pixel(x, y);
            EXPECT_TRUE(painted == 0 || painted == 256) << "block " << b << " half painted";
            if (painted == 256 && blocks++ != b) ADD_FAILURE() << "block " << b << " painted out of launch order";
        }
        return blocks;
    };
    const auto paused = test::load_png(run.dir + "/paused.png"), two_more = test::load_png(run.dir + "/two_more.png");
    ASSERT_EQ(paused.width, 128);
    ASSERT_EQ(two_more.width, 128);
    const int before = painted_blocks(paused);
    EXPECT_LE(before, 30);
    EXPECT_EQ(painted_blocks(two_more), before + 2);
}

// The Backend combo offers what runs here; an unavailable backend cannot be picked.
TEST(GuiControls, TheBackendComboKeepsAnUnavailableBackendUnpicked) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_backend", "wait 2\nclick Backend\nwidgets\nclick cuda-staged\nkey escape\n"
                                                  "wait 2\nprint Backend\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    if (run.result.output.find("widget cuda-staged:  (disabled)") == std::string::npos)
        GTEST_SKIP() << "cuda-staged runs here (a CUDA GPU): nothing to refuse";
    EXPECT_EQ(printed_value(run.result.output, "Backend"), "cpu") << run.result.output;
}

// The canvas size buttons resize the canvas.
TEST(GuiControls, CanvasSizeButtonsResizeTheCanvas) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_size", "size 160x100\nwait 2\nclick Canvas\nclick 800x800\nwait 3\n"
                                               "save {dir}/big.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto big = test::load_png(run.dir + "/big.png");
    EXPECT_EQ(big.width, 800);
    EXPECT_EQ(big.height, 800);
}

// Pixels that differ between two window screenshots of the same size, right of the panel (390
// pixels wide at first use): clicking a control low in the panel scrolls the panel itself.
long differing_pixels(const test::LoadedImage& a, const test::LoadedImage& b) {
    if (a.width != b.width || a.height != b.height) return -1;
    constexpr int kPanelWidth = 390;
    long n = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i)
        n += int(i % std::size_t(a.width)) >= kPanelWidth && a.pixels[i] != b.pixels[i];
    return n;
}

// Matmul's N slider (multiples of 16) and its three variant radios: what the slider shows is what
// --matmul-n paints; "Run all variants" unticks.
TEST(GuiControls, MatmulSizeSliderAndVariantRadios) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_matmul", std::string("size ") + kSize + "\nwait 2\n" + pick_op("Matrix") +
                                                     "drag N -2000 0\ndrag N 40 0\nwait 2\nprint N\n"
                                                     "click register\nclick Run all variants\nwait 2\n"
                                                     "print register\nprint tiled\nprint naive\n"
                                                     "print Run all variants\n"
                                                     "save {dir}/matmul.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    const std::string n = printed_value(out, "N");
    ASSERT_FALSE(n.empty()) << out;
    EXPECT_EQ(std::stoi(n) % 16, 0) << n;
    EXPECT_GT(std::stoi(n), 16) << "the drag did not move N";
    EXPECT_EQ(printed_value(out, "register-blocked 128x128 (8x8 a thread)"), "on");
    EXPECT_EQ(printed_value(out, "tiled 16x16 (shared memory)"), "off");
    EXPECT_EQ(printed_value(out, "naive (global memory)"), "off");
    // On the cpu backend one C++ implementation serves every variant: the box is greyed out, not clickable.
    EXPECT_EQ(printed_value(out, "Run all variants each frame"), "on (disabled)");
    expect_same_as_cli(run, "matmul", "--op matmul --variant registers --matmul-n " + n);
}

// Overlays drawn over the canvas in the window: block outlines appear when ticked and go when
// unticked; the inspector's box follows the pointer only while "Inspect on hover" is ticked.
TEST(GuiControls, OverlayCheckboxesChangeTheWindow) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_overlays", "size 320x200\nwait 2\nhover 5,5\nwait 2\n"
                                      "screenshot {dir}/plain.png\n"
                                      "click Block outlines\nhover 5,5\nwait 2\nscreenshot {dir}/outlines.png\n"
                                      "click Block outlines\nhover 5,5\nwait 2\nscreenshot {dir}/again.png\n"
                                      "click Inspect on hover\nhover 5,5\nwait 2\nprint Inspect on hover\n"
                                      "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto plain = test::load_png(run.dir + "/plain.png"), outlines = test::load_png(run.dir + "/outlines.png"),
               again = test::load_png(run.dir + "/again.png");
    ASSERT_GT(plain.width, 0);
    // 320x200 in blocks of 32x8: 11 vertical and 26 horizontal lines, hundreds of pixels each.
    EXPECT_GT(differing_pixels(plain, outlines), 2000);
    EXPECT_EQ(differing_pixels(plain, again), 0) << "unticking left outlines behind";
    EXPECT_EQ(printed_value(run.result.output, "Inspect on hover"), "off");
}

// "Save canvas PNG (F12)" writes the canvas into the working directory.
TEST(GuiControls, TheSaveButtonWritesThePicture) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string dir = ::testing::TempDir() + "/kc_gui_save_button";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/script.txt") << "size 160x100\nwait 2\nclick Save canvas PNG\nwait 2\nquit\n";
    const auto r = test::run_shell("cd " + dir + " && " + KCANVAS_BIN + " --backend cpu --script script.txt");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::string saved;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".png") saved = e.path().string();
    ASSERT_FALSE(saved.empty()) << "no PNG in " << dir << "\n" << r.output;
    EXPECT_EQ(test::load_png(saved).width, 160);
    const auto want = headless_picture(dir, "gradient", "--op gradient");
    EXPECT_TRUE(test::load_png(saved).pixels == want.pixels);
}

} // namespace
} // namespace kc
