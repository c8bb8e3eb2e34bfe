// The panel's block tuner driven the way a person drives it (real clicks and hovers through the
// script's input verbs): the sweep runs across frames with its progress shown, Cancel stops it and
// keeps the block, a finished sweep shows its figures and the CPU warning, and "Apply block ..."
// launches with the fastest shape, as the canvas' warp colours show.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <sstream>

#include "app/ui/panels/tune_panel.h"
#include "tests/support/gui_script.h"
#include "tests/support/image_file.h"
#include "tests/support/indexing_reference.h"
#include "tests/support/tuner_script.h"

namespace kc {
namespace {

using test::has_line;
using test::printed_value;
using test::run_script;

constexpr int kW = 320, kH = 200;

// The warp view of a 2d launch with `block` and an auto grid: each warp in its colour.
std::vector<Pixel> warp_picture(const Dim3& block) {
    const LaunchConfig l{.block = block};
    std::vector<Pixel> want(std::size_t(kW) * kH, Pixel{});
    test::for_each_write(l, resolved_grid(l, kW, kH), kW, kH, [&](const test::Thread& t, long long i) {
        want[std::size_t(i)] = warp_colour(unsigned(t.ty * l.block.x + t.tx) / 32);
    });
    return want;
}

// Every "widget Tuning progress: N / M shapes" line's N, in order.
std::vector<int> progress_counts(const std::string& output) {
    std::vector<int> counts;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        int done = 0, total = 0;
        if (std::sscanf(line.c_str(), "widget Tuning progress: %d / %d shapes", &done, &total) == 2)
            counts.push_back(done);
    }
    return counts;
}

// The window goes on drawing while the sweep runs: its progress moves between two screenshots,
// and Cancel stops it where it is, with the launch and the picture as they were. 24x8 is no
// candidate shape, so nothing the sweep painted can pass for it.
TEST(GuiTuner, TheSweepRunsAcrossFramesAndCancelKeepsTheBlock) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun run = run_script(
        "kc_gui_tuner_cancel", "size 320x200\nblock 24x8\nview warp\nwait 3\n"
                               "save {dir}/before.png\n"
                               "click Tune the block\nwheel -10 190,400\nclick Find the fastest block\nwait 1\n"
                               "print Tuning progress\n"
                               "screenshot {dir}/during1.png\nwait 4\n"
                               "print Tuning progress\n"
                               "screenshot {dir}/during2.png\n"
                               "click Cancel\nexpect cancelled at\nstatus\n"
                               "wait 5\nstatus\n"
                               "print Block x\nprint Block y\n"
                               "save {dir}/after.png\nquit\n");
    const std::string& out = run.result.output;
    ASSERT_EQ(run.result.exit_code, 0) << out;
    const std::vector<int> progress = progress_counts(out);
    ASSERT_EQ(progress.size(), 2u) << out;
    EXPECT_LT(progress[0], progress[1]) << out; // frames came and the sweep went on between them
    EXPECT_LT(progress[1], int(sweep_candidates().size())) << out;
    EXPECT_GT(test::load_png(run.dir + "/during1.png").width, 0);
    EXPECT_GT(test::load_png(run.dir + "/during2.png").width, 0);

    // Cancelled, and it stays stopped: both statuses after Cancel give the same count.
    const std::string cancelled = "tuner: cancelled, ";
    const std::size_t first = out.find(cancelled), second = out.rfind(cancelled);
    ASSERT_NE(first, std::string::npos) << out;
    ASSERT_NE(first, second) << out;
    const auto count_at = [&](std::size_t at) { return out.substr(at, out.find(" shapes", at) - at); };
    EXPECT_EQ(count_at(first), count_at(second)) << out;
    EXPECT_NE(out.find("message: tuning cancelled after "), std::string::npos) << out;
    EXPECT_EQ(printed_value(out, "Block x") + "," + printed_value(out, "Block y"), "24,8") << out;
    const auto before = test::load_png(run.dir + "/before.png");
    EXPECT_TRUE(before.pixels == warp_picture({24, 8, 1}));
    EXPECT_TRUE(test::load_png(run.dir + "/after.png").pixels == before.pixels); // the op's own picture again
}

// A finished sweep: the heatmap, the table with the tutorial's 50x20, the CPU warning, then Apply
// launches with the fastest shape (and an auto grid), and the canvas shows it.
TEST(GuiTuner, AFinishedSweepShowsItsFiguresAndApplyLaunchesTheFastest) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string script =
        fmt::format("size 320x200\nblock 24x8\nview warp\nwait 3\n"
                    "click Tune the block\nwheel -10 190,400\nclick Find the fastest block\nwait {}\nexpect "
                    "{}\nstatus\nsave {{dir}}/done.png\n"
                    "expect {}\nexpect the tutorial's 50x20\n"
                    "hover block 32x8\nexpect block 32 x 8 (256 threads)\n"
                    "screenshot {{dir}}/results.png\n"
                    "click Apply block\nwait 3\nstatus\nprint Block x\nprint Block y\nsave {{dir}}/applied.png\nquit\n",
                    2 * sweep_candidates().size(), test::sweep_done_text(), kCpuTimingsWarning);
    const test::ScriptRun run = run_script("kc_gui_tuner_apply", script);
    const std::string& out = run.result.output;
    ASSERT_EQ(run.result.exit_code, 0) << out;
    EXPECT_TRUE(has_line(out, std::string("tuner: ") + kCpuTimingsWarning)) << out;
    const std::string table = "tuner table:";
    const std::size_t at = out.find(table);
    ASSERT_NE(at, std::string::npos) << out;
    const std::string rows = out.substr(at, out.find('\n', at) - at);
    EXPECT_NE(rows.find(" 50x20 "), std::string::npos) << rows;
    EXPECT_NE(rows.find(" 32x8 "), std::string::npos) << rows;

    // Done, not applied: the canvas shows the op with its own block again.
    EXPECT_TRUE(test::load_png(run.dir + "/done.png").pixels == warp_picture({24, 8, 1}));

    const auto applied = test::applied_block(out);
    ASSERT_TRUE(applied) << out;
    EXPECT_NE(out.find(fmt::format("fastest {}x{} (", applied->x, applied->y)), std::string::npos) << out;
    EXPECT_EQ(printed_value(out, "Block x") + "," + printed_value(out, "Block y"),
              fmt::format("{},{}", applied->x, applied->y))
        << out;
    EXPECT_TRUE(test::load_png(run.dir + "/applied.png").pixels == warp_picture(*applied))
        << "block " << to_string(*applied);
}

// Picking another op while the sweep runs stops it: its figures would belong to the old op.
TEST(GuiTuner, ChangingTheOpStopsTheSweep) {
    KC_SKIP_WITHOUT_DISPLAY();
    const test::ScriptRun run =
        run_script("kc_gui_tuner_op", "size 320x200\nwait 3\n"
                                      "click Tune the block\nwheel -10 190,400\nclick Find the fastest block\nwait 2\n"
                                      "click Operation\nclick Checkerboard\nwait 3\nstatus\n"
                                      "quit\n");
    const std::string& out = run.result.output;
    ASSERT_EQ(run.result.exit_code, 0) << out;
    EXPECT_NE(out.find("tuner: cancelled, "), std::string::npos) << out;
    EXPECT_NE(out.find("message: tuning cancelled: the op"), std::string::npos) << out;
}

} // namespace
} // namespace kc
