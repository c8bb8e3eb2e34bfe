// Step mode as a teacher uses it, through clicks, drags and keys: a recording made from the window
// paints the whole launch (as `kcanvas record --step` does) with the legend away from the first
// blocks, and scrubbing the time slider back shows fewer blocks and leaves step mode painting.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "tests/support/gif_file.h"
#include "tests/support/gui_script.h"

namespace kc::test {
namespace {

bool near(const Pixel& a, const Pixel& b, int tolerance) {
    return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}

// The "N of M blocks painted" each `text` command printed, in order (-1 where it showed none).
std::vector<long long> painted_counts(const std::string& output) {
    std::vector<long long> counts;
    std::istringstream in(output);
    const std::regex painted(R"((\d+) of (\d+) blocks painted)");
    for (std::string line; std::getline(in, line);) {
        if (line == "text:") counts.push_back(-1);
        std::smatch m;
        if (!counts.empty() && counts.back() < 0 && std::regex_search(line, m, painted))
            counts.back() = std::stoll(m[1]);
    }
    return counts;
}

// Step mode has run in the window for a while at its 8 blocks a second; Start recording with the
// Record section's defaults (but 20 frames): the last frame shows every block painted, and the
// overlays leave the top of the frame, where painting starts, uncovered.
TEST(GuiStep, AWindowRecordingOfStepModePaintsEveryBlockByItsEnd) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_step_record", "size 640x400\nview block\nwait 2\n"
                                                      "click Step through blocks\nwait 20\nclick Record\nwait 2\n"
                                                      "click Frames\nkey ctrl+a\ntype 20\nkey enter\n"
                                                      "click Output file\ntype {dir}/step.gif\nkey enter\n"
                                                      "click Start recording\nexpect recorded 20 frames to\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const DecodedGif gif = decode_gif(run.dir + "/step.gif");
    ASSERT_TRUE(gif.ok);
    ASSERT_EQ(gif.frames.size(), 20u);
    ASSERT_EQ(gif.width, 640);
    const LoadedImage full = headless_picture(run.dir, "full", "640x400", "--view block");
    ASSERT_EQ(full.pixels.size(), 640u * 400);
    // The top 40 % of the frame: block rows 0..19 of 50, no overlay over them.
    const std::vector<Pixel>& last = gif.frames.back();
    int hatched = 0, matching = 0, checked = 0;
    for (int y = 0; y < 160; ++y)
        for (int x = 0; x < 640; ++x) {
            const Pixel want = full.pixels[y * 640 + x], got = last[y * 640 + x];
            if (near(want, uncovered_pixel(x, y), 8)) continue; // block colours that look like the hatching
            ++checked;
            hatched += near(got, uncovered_pixel(x, y), 8);
            matching += near(got, want, 12);
        }
    EXPECT_EQ(hatched, 0) << "unpainted pixels in the last frame's top rows";
    EXPECT_GE(matching, checked * 99 / 100) << "of " << checked << " pixels, as the headless picture";
    // The recording starts at block 0: the first frame is hatched where its last is painted.
    int first_hatched = 0;
    for (int y = 0; y < 160; ++y)
        for (int x = 0; x < 640; ++x) first_hatched += near(gif.frames.front()[y * 640 + x], uncovered_pixel(x, y), 8);
    EXPECT_GT(first_hatched, 640 * 150);
}

// The other choice, "on from block N at the window's pace": 20 frames at 30 fps and 8 blocks a
// second add 5 blocks to what the window showed, so the last frame's top rows stay mostly hatched.
TEST(GuiStep, ARecordingAtTheWindowsPaceGoesOnFromWhatItShows) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_step_pace", "size 640x400\nview block\nwait 2\n"
                                       "click Step through blocks\nwait 10\nclick Record\nwait 2\n"
                                       "click on from block\nclick Frames\nkey ctrl+a\ntype 20\nkey enter\n"
                                       "click Output file\ntype {dir}/pace.gif\nkey enter\n"
                                       "click Start recording\nexpect recorded 20 frames to\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const DecodedGif gif = decode_gif(run.dir + "/pace.gif");
    ASSERT_TRUE(gif.ok);
    ASSERT_EQ(gif.frames.size(), 20u);
    int hatched = 0;
    for (int y = 0; y < 160; ++y)
        for (int x = 0; x < 640; ++x) hatched += near(gif.frames.back()[y * 640 + x], uncovered_pixel(x, y), 8);
    EXPECT_GT(hatched, 640 * 120) << "far from every block painted";
}

// Step mode begun at t = 10 and run to t = 60, paused; the Time slider dragged left (from its
// middle: t jumps to 35, then goes back further) shows fewer blocks (not none), keeps its range,
// and Play paints on from there; dragged to 0, before block 0, Play paints from block 0 at once.
TEST(GuiStep, ScrubbingTimeBackShowsFewerBlocksAndPlayPaintsOn) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_step_scrub", "size 512x320\nwait 2\nclick Time\ntime 10\nwait 2\n"
                                        "click Step through blocks\nwait 2\ntime 60\nwait 2\n"
                                        "click Pause time\nwait 2\nprint Time (s)\ntext\n"
                                        "drag Time (s) -20 0\nwait 2\nprint Time (s)\ntext\n"
                                        "click Play\nwait 40\ntext\nclick Pause time\nwait 2\n"
                                        "drag Time (s) -400 0\nwait 2\ntext\nclick Play\nwait 40\ntext\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::vector<long long> counts = painted_counts(run.result.output);
    ASSERT_EQ(counts.size(), 5u) << run.result.output;
    EXPECT_GT(counts[0], 350) << "50 s at 8 blocks a second";
    EXPECT_LT(counts[1], counts[0]) << "scrubbed back: fewer blocks";
    EXPECT_GT(counts[1], 0) << "scrubbed back a little, not to before block 0";
    EXPECT_GT(counts[2], counts[1]) << "Play paints on";
    // Scrubbed to 0, before step mode began: no block, and Play paints at once from there.
    EXPECT_EQ(counts[3], 0);
    EXPECT_GT(counts[4], 0) << "Play paints after a scrub back past block 0";
    // 20 points left of the middle of 0..70 s: about 30 s, not a drag that ran away to 0 as the
    // slider's range shrank under it.
    const double scrubbed = std::stod(printed_value(run.result.output, "Time (s)"));
    EXPECT_GT(scrubbed, 20.0);
    EXPECT_LT(scrubbed, 35.0);
}

} // namespace
} // namespace kc::test
