// The SM timeline section through real mouse input: its checkbox turns the recording on, hovering
// a bar outlines that block on the canvas (in the chart's cyan, the block's shape), and hovering
// the canvas names the block whose bar is marked, the block of the pixel under the cursor.
#include <gtest/gtest.h>

#include <climits>
#include <fstream>
#include <regex>

#include "gpu/block_timeline.h"
#include "gpu/registry.h"
#include "tests/support/gui_script.h"

namespace kc::test {
namespace {

struct Box {
    int x0 = INT_MAX, y0 = INT_MAX, x1 = -1, y1 = -1;
    bool empty() const { return x1 < 0; }
};

// Where cyan (0, 255, 255) lies in the screenshot, outside `skip` (the chart, whose hovered bar is
// outlined in cyan too).
Box cyan_outside(const LoadedImage& shot, const Box& skip) {
    Box b;
    for (int y = 0; y < shot.height; ++y)
        for (int x = 0; x < shot.width; ++x) {
            const Pixel p = shot.pixels[std::size_t(y) * shot.width + x];
            if (p.r != 0 || p.g != 255 || p.b != 255) continue;
            if (x >= skip.x0 - 4 && x <= skip.x1 + 4 && y >= skip.y0 - 4 && y <= skip.y1 + 4) continue;
            b.x0 = std::min(b.x0, x), b.y0 = std::min(b.y0, y), b.x1 = std::max(b.x1, x), b.y1 = std::max(b.y1, y);
        }
    return b;
}

TEST(GuiTimeline, HoveringABarOutlinesItsBlockAndHoveringThePixelMarksItsBar) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_timeline", "window 1280x800\nsize 256x128\nblock 32x8\nwait 3\n"
                                                   "click SM timeline\nclick Record the timeline\nwait 5\n"
                                                   "expect blocks on\nhover timeline chart\nwait 3\ntext\n"
                                                   "where timeline chart\nscreenshot {dir}/bar.png\n"
                                                   "hover 1000,420\nexpect its bar marked\ntext\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::string& out = run.result.output;
    // The bar under the mouse names its block, and the canvas shows that block's outline.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(bar: block \((\d+),(\d+)\), outlined on the canvas)")))
        << "no bar under the chart's middle: " << out;
    Box chart;
    ASSERT_EQ(std::sscanf(out.substr(out.find("where timeline chart: ")).c_str(), "where timeline chart: %d,%d %d,%d",
                          &chart.x0, &chart.y0, &chart.x1, &chart.y1),
              4)
        << out;
    const Box outline = cyan_outside(load_png(run.dir + "/bar.png"), chart);
    ASSERT_FALSE(outline.empty()) << "no cyan outline on the canvas";
    const double aspect = double(outline.x1 - outline.x0) / double(std::max(1, outline.y1 - outline.y0));
    EXPECT_NEAR(aspect, 32.0 / 8.0, 0.8) << "the outline is not a 32x8 block's shape";
    // The mouse over the canvas: the block of the pixel under the cursor has its bar marked.
    std::smatch cursor, marked;
    const std::string after = out.substr(out.rfind("text:"));
    ASSERT_TRUE(std::regex_search(after, cursor, std::regex(R"(cursor \((\d+), (\d+)\))"))) << after;
    ASSERT_TRUE(std::regex_search(after, marked, std::regex(R"(canvas: block \((\d+),(\d+)\), its bar marked)")))
        << after;
    EXPECT_EQ(std::stoi(marked[1]), std::stoi(cursor[1]) / 32) << after;
    EXPECT_EQ(std::stoi(marked[2]), std::stoi(cursor[2]) / 8) << after;
}

// A timeline recorded elsewhere (--timeline-in): the section names where it was recorded and shows
// its waves; a bar hovered is outlined on the canvas while the canvas runs that launch; Close goes
// back to this machine's recording.
TEST(GuiTimeline, ARecordedTimelineShowsWhereItWasRecordedAndClosesBackToTheLiveOne) {
    KC_SKIP_WITHOUT_DISPLAY();
    BlockTimeline t; // 8x16 blocks of 32x8 over 256x128, a wave of 100 and a tail of 28 on 4 SMs
    t.op = find_op("gradient")->index, t.block = {32, 8, 1}, t.grid = {8, 16, 1}, t.resolution_ns = 32;
    for (long long n = 0; n < t.grid.count(); ++n)
        t.blocks.push_back(
            BlockTime{1000 + unsigned(n / 100) * 5000, 5000 + unsigned(n / 100) * 5000, unsigned(n % 4) * 2, 1u});
    const std::string file = ::testing::TempDir() + "/kc_gui_recorded_timeline.json";
    std::ofstream(file) << timeline_chrome_trace(t, "NVIDIA H200 (a test's)");
    const auto run = run_script("kc_gui_recorded_timeline",
                                "window 1280x800\nwait 3\nclick SM timeline\nhover Close the recorded timeline\n"
                                "expect Recorded on NVIDIA H200 (a test's) (kc_gui_recorded_timeline.json): gradient "
                                "32x8x1: 128 blocks on 4 SMs\n"
                                "expect tail: 28 blocks in the last wave\nhover timeline chart\n"
                                "expect outlined on the canvas\nclick Close the recorded timeline\n"
                                "hover Record the timeline\nexpect-not Recorded on\nquit\n",
                                "--backend cpu --size 256x128 --block 32x8 --timeline-in " + file);
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
}

TEST(GuiTimeline, ABadRecordedTimelineExitsWith2AndSaysWhy) {
    const std::string file = ::testing::TempDir() + "/kc_gui_bad_timeline.json";
    std::ofstream(file) << "{\"traceEvents\": []}";
    const auto r = run("--timeline-in " + file + " --backend cpu");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--timeline-in: no \"otherData\""), std::string::npos) << r.output;
    EXPECT_NE(run("--headless --timeline-in " + file).output.find("drop --headless"), std::string::npos);
}

} // namespace
} // namespace kc::test
