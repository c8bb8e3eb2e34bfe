// The window's layout and canvas view, used through real input (the script's input verbs): the
// wheel zooms about the cursor and the inspector names the pixel under it, Fit and 1:1, drag and
// +/- keys, the status bar's saved path, a 640x480 window, the panel's edge, the UI scale.
// Everything is read back from the window's pixels or from what it printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"

namespace kc {
namespace {

using test::LoadedImage;
using test::run_script;

// Every size in these scripts: a 1000x700 window, a 320x200 gradient, the panel 390 wide at the
// left at 100 %, so the canvas area is x 390..999 above the status bar.
constexpr const char* kSetUp = "window 1000x700\nsize 320x200\nwait 3\n";

const Pixel& at(const LoadedImage& im, int x, int y) { return im.pixels[std::size_t(y) * im.width + x]; }

bool same_colour(const Pixel& a, const Pixel& b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

// The gradient's colours are far from grey; the panel, the status bar and the background are grey.
bool canvas_coloured(const Pixel& p) {
    const int hi = std::max({p.r, p.g, p.b}), lo = std::min({p.r, p.g, p.b});
    return hi - lo > 40;
}

long canvas_coloured_in(const LoadedImage& im, int x0, int x1) {
    long n = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = std::max(0, x0); x < std::min(im.width, x1); ++x) n += canvas_coloured(at(im, x, y));
    return n;
}

// Where `part` appears pixel for pixel inside `whole`, if it does.
std::optional<std::pair<int, int>> find_exact(const LoadedImage& whole, const LoadedImage& part) {
    for (int y = 0; y + part.height <= whole.height; ++y)
        for (int x = 0; x + part.width <= whole.width; ++x) {
            if (!same_colour(at(whole, x, y), at(part, 0, 0))) continue;
            bool all = true;
            for (int py = 0; py < part.height && all; ++py)
                for (int px = 0; px < part.width && all; ++px)
                    all = same_colour(at(whole, x + px, y + py), at(part, px, py));
            if (all) return std::pair{x, y};
        }
    return std::nullopt;
}

// What each `text` command printed, in order.
std::vector<std::string> text_dumps(const std::string& output) {
    std::vector<std::string> dumps;
    for (std::size_t at = output.find("text:\n"); at != std::string::npos; at = output.find("text:\n", at + 1)) {
        const std::size_t end = output.find("\nscript:", at);
        dumps.push_back(output.substr(at, end == std::string::npos ? std::string::npos : end - at));
    }
    return dumps;
}

// "NAME (x, y)" in a dump: the status bar's "cursor" or the inspector's "pixel".
std::optional<std::pair<int, int>> named_pixel(const std::string& dump, const std::string& name) {
    std::smatch m;
    if (!std::regex_search(dump, m, std::regex(name + " \\((\\d+), (\\d+)\\)"))) return std::nullopt;
    return std::pair{std::stoi(m[1]), std::stoi(m[2])};
}

TEST(GuiLayout, WheelZoomsAboutTheCursorAndTheInspectorNamesThePixelUnderIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_zoom", std::string(kSetUp) + "hover 600,300\nwait 3\ntext\n"
                                                        "wheel 3 600,300\nhover 600,300\nwait 3\ntext\n"
                                                        "save {dir}/canvas.png\nscreenshot {dir}/zoomed.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto dumps = text_dumps(run.result.output);
    ASSERT_EQ(dumps.size(), 2u) << run.result.output;
    const auto before = named_pixel(dumps[0], "cursor"), after = named_pixel(dumps[1], "cursor");
    ASSERT_TRUE(before && after) << run.result.output;
    // Three notches from the fit (190 %): 200, 300, 400 %, about the cursor, which keeps its pixel.
    EXPECT_NE(dumps[1].find("\n400%"), std::string::npos) << dumps[1];
    EXPECT_LE(std::abs(after->first - before->first), 1) << dumps[0] << dumps[1];
    EXPECT_LE(std::abs(after->second - before->second), 1) << dumps[0] << dumps[1];
    EXPECT_EQ(named_pixel(dumps[1], "pixel"), after) << "the inspector names another pixel:\n" << dumps[1];

    // On screen: the inspector's white box is one 4x4 square around the cursor, and inside it is
    // the colour of the pixel it names.
    const auto window = test::load_png(run.dir + "/zoomed.png"), canvas = test::load_png(run.dir + "/canvas.png");
    ASSERT_EQ(window.width, 1000) << run.result.output;
    int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
    for (int y = 300 - 6; y <= 300 + 6; ++y)
        for (int x = 600 - 6; x <= 600 + 6; ++x)
            if (std::min({at(window, x, y).r, at(window, x, y).g, at(window, x, y).b}) >= 240)
                x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
    ASSERT_GE(x1, 0) << "no inspector box near the cursor";
    EXPECT_EQ(x1 - x0, 3);
    EXPECT_EQ(y1 - y0, 3);
    EXPECT_TRUE(x0 <= 600 && 600 <= x1 && y0 <= 300 && 300 <= y1);
    const Pixel& want = at(canvas, after->first, after->second);
    EXPECT_TRUE(same_colour(at(window, x0 + 1, y0 + 1), want));
    EXPECT_TRUE(same_colour(at(window, x0 + 2, y0 + 2), want));
}

TEST(GuiLayout, OneToOneShowsEveryPixelOnceAndFitFillsTheArea) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_fit", std::string(kSetUp) + "click 1:1\nwait 3\ntext\nscreenshot {dir}/one.png\n"
                                                       "save {dir}/canvas.png\n"
                                                       "click Fit\nwait 3\ntext\nscreenshot {dir}/fit.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto dumps = text_dumps(run.result.output);
    ASSERT_EQ(dumps.size(), 2u) << run.result.output;
    EXPECT_NE(dumps[0].find("\n100%"), std::string::npos) << dumps[0];
    EXPECT_NE(dumps[1].find("\nfit 1"), std::string::npos) << dumps[1]; // 190 %
    const auto one = test::load_png(run.dir + "/one.png"), fit = test::load_png(run.dir + "/fit.png");
    const auto canvas = test::load_png(run.dir + "/canvas.png");
    ASSERT_EQ(one.width, 1000);
    const auto where = find_exact(one, canvas);
    ASSERT_TRUE(where) << "the canvas is not shown 1:1";
    EXPECT_NEAR(where->first, 390 + (610 - 320) / 2, 1); // centred in the area beside the panel
    // Fit: the picture spans the whole width beside the panel.
    for (int x : {392, 700, 997}) EXPECT_TRUE(canvas_coloured(at(fit, x, 300))) << x;
    EXPECT_FALSE(canvas_coloured(at(one, 392, 300)));
}

TEST(GuiLayout, DragPansThePictureAndPlusMinusKeysZoom) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script(
        "kc_gui_pan", std::string(kSetUp) +
                          "click Inspect on hover\nclick 1:1\nwait 2\nsave {dir}/canvas.png\nscreenshot {dir}/a.png\n"
                          "drag 700,300 50 -20\nwait 3\nscreenshot {dir}/b.png\n"
                          "drag 700,300 -30 10 middle\nwait 3\nscreenshot {dir}/c.png\n"
                          "hover 700,300\nkey plus\nwait 3\ntext\n"
                          "key minus\nkey minus\nwait 3\ntext\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto canvas = test::load_png(run.dir + "/canvas.png");
    const auto a = find_exact(test::load_png(run.dir + "/a.png"), canvas);
    const auto b = find_exact(test::load_png(run.dir + "/b.png"), canvas);
    const auto c = find_exact(test::load_png(run.dir + "/c.png"), canvas);
    ASSERT_TRUE(a && b && c) << run.result.output;
    EXPECT_EQ(b->first - a->first, 50);
    EXPECT_EQ(b->second - a->second, -20);
    EXPECT_EQ(c->first - b->first, -30);
    EXPECT_EQ(c->second - b->second, 10);
    const auto dumps = text_dumps(run.result.output);
    ASSERT_EQ(dumps.size(), 2u) << run.result.output;
    EXPECT_NE(dumps[0].find("\n200%"), std::string::npos) << dumps[0];
    EXPECT_NE(dumps[1].find("\n50%"), std::string::npos) << dumps[1];
}

TEST(GuiLayout, TheStatusBarShowsTheSavedFilesFullPath) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_saved", std::string(kSetUp) + "click Save canvas PNG\nwait 3\ntext\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto dumps = text_dumps(run.result.output);
    ASSERT_EQ(dumps.size(), 1u) << run.result.output;
    std::smatch m;
    const std::string& dump = dumps[0];
    ASSERT_TRUE(std::regex_search(dump, m, std::regex("saved (/[^\n]*kcanvas-gradient-[0-9-]+\\.png)"))) << dump;
    const std::filesystem::path saved = m[1].str();
    EXPECT_EQ(saved.parent_path(), std::filesystem::current_path()); // where kcanvas ran, in full
    EXPECT_TRUE(std::filesystem::exists(saved));
    std::filesystem::remove(saved);
}

TEST(GuiLayout, A640x480WindowKeepsTheCanvasAndTheStatusBarAndHidingThePanelWidensIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_small", "window 640x480\nsize 320x200\nwait 3\nprint Fit\nprint Hide panel\n"
                                                "screenshot {dir}/small.png\n"
                                                "click Hide panel\nwait 3\nprint Show panel\n"
                                                "screenshot {dir}/hidden.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto small = test::load_png(run.dir + "/small.png"), hidden = test::load_png(run.dir + "/hidden.png");
    ASSERT_EQ(small.width, 640);
    ASSERT_EQ(small.height, 480);
    // 250 points beside the panel: the picture fits there at 78 %, 250x156.
    EXPECT_GT(canvas_coloured_in(small, 390, 640), 30000);
    // Hidden, the panel's side shows the canvas too: 640x400 at 200 % (the panel's blue controls
    // are coloured too, but far fewer).
    EXPECT_GT(canvas_coloured_in(hidden, 0, 385), canvas_coloured_in(small, 0, 385) + 60000);
}

TEST(GuiLayout, DraggingThePanelsEdgeWidensIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_edge", std::string(kSetUp) +
                                                   "screenshot {dir}/before.png\n"
                                                   "drag Panel edge 100 0\nwait 3\nscreenshot {dir}/after.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto before = test::load_png(run.dir + "/before.png"), after = test::load_png(run.dir + "/after.png");
    ASSERT_EQ(before.width, 1000);
    EXPECT_TRUE(canvas_coloured(at(before, 400, 300)));
    EXPECT_FALSE(canvas_coloured(at(after, 400, 300))); // the panel now
    EXPECT_TRUE(canvas_coloured(at(after, 500, 300)));
}

TEST(GuiLayout, UiScale200DoublesThePanel) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_scale", "window 1280x800\nsize 320x200\nwait 3\nscreenshot {dir}/big.png\nquit\n",
                   "--backend cpu --ui-scale 200");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto big = test::load_png(run.dir + "/big.png");
    ASSERT_EQ(big.width, 1280);
    EXPECT_FALSE(canvas_coloured(at(big, 770, 350))); // the panel is 780 wide
    EXPECT_TRUE(canvas_coloured(at(big, 790, 350)));
}

// Mandelbrot keeps the plain wheel and left drag for its own zoom and centre: the picture changes
// and the view stays fitted; a middle drag pans the view instead and leaves the picture alone.
TEST(GuiLayout, FractalsKeepTheWheelAndLeftDragForTheirOwnZoom) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_fractal", std::string(kSetUp) +
                                                      "op mandelbrot\niter 64\nwait 3\nsave {dir}/before.png\n"
                                                      "wheel 2 700,300\nwait 3\ntext\nsave {dir}/zoomed.png\n"
                                                      "drag 700,300 40 0 middle\nwait 3\ntext\nsave {dir}/panned.png\n"
                                                      "quit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const auto dumps = text_dumps(run.result.output);
    ASSERT_EQ(dumps.size(), 2u) << run.result.output;
    EXPECT_NE(dumps[0].find("\nfit "), std::string::npos) << "the wheel zoomed the view:\n" << dumps[0];
    EXPECT_EQ(dumps[1].find("\nfit "), std::string::npos) << "the middle drag did not pan the view:\n" << dumps[1];
    const auto before = test::load_png(run.dir + "/before.png"), zoomed = test::load_png(run.dir + "/zoomed.png");
    EXPECT_FALSE(before.pixels == zoomed.pixels) << "the wheel did not zoom the fractal";
    EXPECT_TRUE(test::load_png(run.dir + "/panned.png").pixels == zoomed.pixels) << "the view's pan moved the fractal";
}

// The panel's UI scale slider, dragged and released: fonts and style are rebuilt between frames
// and the panel grows with them.
TEST(GuiLayout, TheUiScaleSliderRescalesThePanelWhenReleased) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_slider", std::string(kSetUp) +
                                                     "click Window and view\nwait 2\ndrag UI scale 2000 0\nwait 3\n"
                                                     "print UI scale\nscreenshot {dir}/scaled.png\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(test::printed_value(run.result.output, "UI scale"), "300") << run.result.output;
    const auto scaled = test::load_png(run.dir + "/scaled.png");
    ASSERT_EQ(scaled.width, 1000);
    // 390 x 300 % is more than the window allows: the panel stops 200 points short of its right edge.
    EXPECT_FALSE(canvas_coloured(at(scaled, 790, 300)));
    EXPECT_TRUE(canvas_coloured(at(scaled, 810, 300)));
}

// `window WxH` is checked as every script number is: 0x0 (an X error), -5x-5 (an abort) and
// 100000x100000 (a crash) name the limits, the line, and exit 2 before GLFW sees them.
TEST(GuiLayout, TheWindowVerbRefusesSizesNoScreenShows) {
    KC_SKIP_WITHOUT_DISPLAY();
    for (const std::string size : {"0x0", "-5x-5", "100000x100000", "640", "640x480x2", "99x480"}) {
        const test::ScriptRun run = run_script("kc_gui_window_size", "wait 1\nwindow " + size + "\nwait 2\nquit\n");
        EXPECT_EQ(run.result.exit_code, 2) << size << "\n" << run.result.output;
        EXPECT_NE(run.result.output.find("script.txt:2: window " + size +
                                         ": needs WxH, each a whole number from 100 to 8192"),
                  std::string::npos)
            << run.result.output;
    }
}

} // namespace
} // namespace kc
