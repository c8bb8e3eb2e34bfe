// The A/B split driven as a person drives it (real clicks and drags through the script's input
// verbs): the split turned on, side B's op chosen from its combo, the divider dragged over the
// canvas; asserted on what the window shows: the picture left of the divider is A's (the
// gradient), right of it B's (the checkerboard), the diff and the ratio in the panel.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "gpu/op_params.h"
#include "tests/support/gif_file.h"
#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"
#include "tests/support/reference.h"

namespace kc {
namespace {

using test::run_script;

constexpr int kW = 200, kH = 120;

struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    int mid_x() const { return (x0 + x1) / 2; }
    int mid_y() const { return (y0 + y1) / 2; }
};

// Every "where LABEL: X0,Y0 X1,Y1" line of `label`, in order.
std::vector<Box> where_lines(const std::string& output, const std::string& label) {
    std::vector<Box> boxes;
    std::istringstream in(output);
    const std::string key = "where " + label + ": ";
    for (std::string line; std::getline(in, line);) {
        Box b;
        if (line.starts_with(key) &&
            std::sscanf(line.c_str() + key.size(), "%d,%d %d,%d", &b.x0, &b.y0, &b.x1, &b.y1) == 4)
            boxes.push_back(b);
    }
    return boxes;
}

Pixel at(const test::LoadedImage& img, int x, int y) { return img.pixels[std::size_t(y) * img.width + x]; }

// The checkerboard's pixels are black or white; the gradient's never are (its red is 1..128).
bool checker_like(Pixel p) { return p.r == p.g && p.g == p.b && (p.r == 0 || p.r == 255); }
bool gradient_like(Pixel p) { return p.r > 0 && p.r <= 128 && !(p.r == p.g && p.g == p.b); }

// How many pixels the two pictures differ in, from their references.
long long reference_diff() {
    const int cell = OpParams{}.cell;
    long long n = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const ref::Rgb g = ref::gradient(x, y, kW, kH), c = ref::checkerboard(x, y, cell);
            n += g.r != c.r || g.g != c.g || g.b != c.b;
        }
    return n;
}

TEST(GuiAb, TheDividerDraggedByTheMouseMovesWhereBBegins) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun run = run_script("kc_gui_ab_divider", "size 200x120\nop gradient\nwait 3\n"
                                                                "click A/B split\n"
                                                                "click Split the canvas: A | B\nwait 2\n"
                                                                "click B operation\nclick Checkerboard\nwait 12\n"
                                                                "expect B/A = \n"
                                                                "text\n"
                                                                "click Mark differing pixels\nwait 3\n"
                                                                "where A|B divider\n"
                                                                "screenshot {dir}/before.png\n"
                                                                "drag A|B divider -60 0\nwait 3\n"
                                                                "where A|B divider\n"
                                                                "screenshot {dir}/after.png\n"
                                                                "click Side by side\nwait 3\n"
                                                                "screenshot {dir}/side.png\n");
    const std::string& out = run.result.output;
    ASSERT_EQ(run.result.exit_code, 0) << out;
    // What the panel says: the diff the references predict, and the ratio.
    EXPECT_NE(out.find("Pixels: " + std::to_string(reference_diff()) + " pixels differ"), std::string::npos) << out;
    EXPECT_NE(out.find("B/A = "), std::string::npos) << out;
    EXPECT_NE(out.find("times from the CPU emulator"), std::string::npos) << out;
    const std::vector<Box> divider = where_lines(out, "A|B divider");
    ASSERT_EQ(divider.size(), 2u) << out;
    const Box& before = divider[0];
    const Box& after = divider[1];
    EXPECT_NEAR(after.mid_x(), before.mid_x() - 60, 3) << "the divider follows the mouse";
    const int y = before.mid_y() + 20; // below the handle's circle
    const test::LoadedImage b = test::load_png(run.dir + "/before.png"), a = test::load_png(run.dir + "/after.png");
    ASSERT_GT(b.width, before.x1 + 40);
    // Before: A (the gradient) left of the divider, B (the checkerboard) right of it.
    EXPECT_TRUE(gradient_like(at(b, before.mid_x() - 30, y)));
    EXPECT_TRUE(checker_like(at(b, before.mid_x() + 30, y)));
    // After the drag to the left, what was A's between the two places is B's.
    EXPECT_TRUE(gradient_like(at(a, after.mid_x() - 30, y)));
    EXPECT_TRUE(checker_like(at(a, after.mid_x() + 30, y)));
    EXPECT_TRUE(checker_like(at(a, before.mid_x() - 30, y)));
    // Side by side: along the canvas' middle row, every gradient pixel lies left of every checkerboard one.
    const test::LoadedImage s = test::load_png(run.dir + "/side.png");
    int last_gradient = -1, first_checker = s.width, gradients = 0, checkers = 0;
    for (int x = before.mid_x() - 250; x < before.mid_x() + 250; ++x) {
        if (x < 0 || x >= s.width) continue;
        const Pixel p = at(s, x, y);
        if (gradient_like(p)) last_gradient = x, ++gradients;
        if (checker_like(p)) first_checker = std::min(first_checker, x), ++checkers;
    }
    EXPECT_GT(gradients, 50);
    EXPECT_GT(checkers, 50);
    EXPECT_LT(last_gradient, first_checker);
}

// The Record section records the split as it shows: side by side, a frame twice the canvas' width,
// A's half and B's alike while B is the copy of A the split starts with.
TEST(GuiAb, TheRecordSectionRecordsTheSplitSideBySide) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun run = run_script("kc_gui_ab_record", "size 96x64\nwait 2\nclick A/B split\n"
                                                               "click Split the canvas: A | B\nclick Side by side\n"
                                                               "wait 2\nclick Record\nwait 2\n"
                                                               "click Frames\nkey ctrl+a\ntype 3\nkey enter\n"
                                                               "click Output file\ntype {dir}/ab.gif\nkey enter\n"
                                                               "click Start recording\nexpect recorded 3 frames to\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const test::DecodedGif gif = test::decode_gif(run.dir + "/ab.gif");
    ASSERT_TRUE(gif.ok);
    ASSERT_EQ(gif.frames.size(), 3u);
    EXPECT_EQ(gif.width, 2 * 96);
    EXPECT_EQ(gif.height, 64);
    const std::vector<Pixel>& f = gif.frames[0];
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x)
            ASSERT_EQ(pack(f[std::size_t(y) * 192 + x]), pack(f[std::size_t(y) * 192 + 96 + x])) << x << "," << y;
}

} // namespace
} // namespace kc
