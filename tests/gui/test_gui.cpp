// The real windowed app (GLFW + ImGui) under a display (Xvfb with Mesa in CI), driven by a UI
// script: changing op, block and weight changes the pixels as the references say, and an illegal
// block shows its message and keeps the last picture.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "render/gl_context.h"
#include "tests/support/image_file.h"
#include "tests/support/indexing_reference.h"
#include "tests/support/op_expectations.h"
#include "tests/support/run_process.h"
#include "tests/support/tuner_script.h"

namespace kc {
namespace {

TEST(Gui, ScriptedPanelChangesPaintTheReferencePictures) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
    const std::string dir = ::testing::TempDir() + "/kc_gui";
    std::filesystem::create_directories(dir);
    const std::string script = dir + "/script.txt";
    std::ofstream(script) << "backend cpu\n"
                             "size 320x200\n"
                             "wait 3\n"
                             "save "
                          << dir
                          << "/gradient.png\n"
                             "op checkerboard\ncell 17\nwait 3\n"
                             "save "
                          << dir
                          << "/checker.png\n"
                             "block 50x30\nwait 3\nstatus\n"
                             "save "
                          << dir
                          << "/refused.png\n"
                             "screenshot "
                          << dir
                          << "/refused_window.png\n"
                             "block 50x20\nop blend\nweight 0.3\nwait 3\nstatus\n"
                             "save "
                          << dir
                          << "/blend.png\n"
                             "screenshot "
                          << dir << "/window.png\n"
                          << test::tune_and_apply_script()
                          << "status\n"
                             "quit\n";
    const auto r = test::run("--script " + script);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("status: refused: block 50x30x1 has 1500 threads"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("status: ok"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("message: applied block "), std::string::npos) << r.output; // tuned, and Apply pressed

    PaintJob job;
    job.params = {.width = 320, .height = 200, .weight = 0.75f, .cell = 80};
    const auto gradient = test::load_png(dir + "/gradient.png");
    ASSERT_EQ(gradient.width, 320);
    EXPECT_TRUE(ref::matches_reference(job, gradient.pixels));

    job.op = find_op("checkerboard")->index;
    job.params.cell = 17;
    const auto checker = test::load_png(dir + "/checker.png");
    EXPECT_TRUE(ref::matches_reference(job, checker.pixels));
    // The refused launch kept the last picture.
    EXPECT_EQ(test::load_png(dir + "/refused.png").pixels, checker.pixels);

    job.op = find_op("blend")->index;
    job.params.weight = 0.3f;
    job.launch.block = {50, 20, 1};
    EXPECT_TRUE(ref::matches_reference(job, test::load_png(dir + "/blend.png").pixels));

    // The window shows the panel beside the canvas: many distinct colours, not a blank frame.
    const auto window = test::load_png(dir + "/window.png");
    ASSERT_GT(window.width, 0);
    std::set<std::uint32_t> colours;
    for (const Pixel& p : window.pixels) colours.insert(p.r << 16 | p.g << 8 | p.b);
    EXPECT_GT(colours.size(), 100u);
}

// The columns mapping through the window: the panel with its why-line, the inspector, block
// outlines and step mode run, the picture is the reference's, and the block tuner keeps columns.
TEST(Gui, ColumnsMappingPaintsTheSamePictureAndTheTunerKeepsIt) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
    const std::string dir = ::testing::TempDir() + "/kc_gui_columns";
    std::filesystem::create_directories(dir);
    const std::string script = dir + "/script.txt";
    std::ofstream(script)
        << "backend cpu\n"
           "size 320x200\n"
           "mapping columns\nblock 32x8\npanel indexing\ninspect 100,50\noutlines on\nwait 3\nstatus\n"
           "save "
        << dir
        << "/columns.png\n"
           "screenshot "
        << dir
        << "/window.png\n"
           "view warp\nstep 5\nwait 3\nstep off\nview pixels\ninspect off\n"
        << test::tune_and_apply_script()
        << "status\nview warp\nwait 2\n"
           "save "
        << dir
        << "/tuned_warps.png\n"
           "quit\n";
    const auto r = test::run("--script " + script);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("status: ok"), std::string::npos) << r.output;
    PaintJob job;
    job.params = {.width = 320, .height = 200, .weight = 0.75f, .cell = 80};
    job.launch.mapping = Mapping::Columns;
    EXPECT_TRUE(ref::matches_reference(job, test::load_png(dir + "/columns.png").pixels));
    EXPECT_GT(test::load_png(dir + "/window.png").width, 0);

    // The tuned block, still with columns: its warps are coloured down the columns.
    const auto tuned = test::applied_block(r.output);
    ASSERT_TRUE(tuned) << r.output;
    const LaunchConfig l{.block = *tuned, .mapping = Mapping::Columns};
    std::vector<Pixel> want(320 * 200, Pixel{});
    test::for_each_write(l, resolved_grid(l, 320, 200), 320, 200, [&](const test::Thread& t, long long i) {
        want[std::size_t(i)] = warp_colour(unsigned(t.ty * l.block.x + t.tx) / 32);
    });
    EXPECT_TRUE(test::load_png(dir + "/tuned_warps.png").pixels == want) << "block " << to_string(*tuned);
}

// The user-kernel editor driven by a script: the starter compiles and paints (on the CPU backend
// for the CPU, in the sandbox), and a broken source fails on its line while the starter stays.
TEST(Gui, UserKernelOpCompilesAndRuns) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
    const std::string dir = ::testing::TempDir() + "/kc_gui_kernel";
    std::filesystem::create_directories(dir);
    const std::string script = dir + "/script.txt";
    std::ofstream(script)
        << "size 320x200\nwait 2\nop user_kernel\nwait 3\nstatus\n"
           "starter gradient\nwait 2\nstatus\n"
           "source -\nsource extern \"C\" __global__ void paint(Pixel* out) { oops }\ncompile\nwait 2\nstatus\n"
           "kernel "
        << dir
        << "/missing.cu\nwait 2\nstatus\n"
           "save "
        << dir
        << "/canvas.png\n"
           "screenshot "
        << dir << "/window.png\nquit\n";
    const auto r = test::run("--script " + script);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("kernel file: cannot read '" + dir + "/missing.cu'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("compile: ok"), std::string::npos) << r.output;
    // The gradient ran; the broken source failed on its line 1 and the gradient stayed.
    EXPECT_NE(r.output.find("gradient.cu(1)"), std::string::npos) << r.output; // the starter it was edited from
    const auto canvas = test::load_png(dir + "/canvas.png");
    PaintJob job;
    job.params = {.width = 320, .height = 200};
    EXPECT_TRUE(ref::matches_reference(job, canvas.pixels));
    const auto window = test::load_png(dir + "/window.png");
    std::set<std::uint32_t> colours;
    for (const Pixel& p : window.pixels) colours.insert(p.r << 16 | p.g << 8 | p.b);
    EXPECT_GT(colours.size(), 20u); // the panel with the editor, not a blank frame
}

// On the cpu backend a kernel that crashes or never ends ends only its sandbox: the window says so
// (the crash with its thread) and stays usable: the starter compiled next paints its picture.
TEST(Gui, CpuKernelThatCrashesOrLoopsLeavesTheWindowUsable) {
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)";
    const std::string dir = ::testing::TempDir() + "/kc_gui_sandbox";
    std::filesystem::create_directories(dir);
    const std::string script = dir + "/script.txt";
    const std::string head = "source -\nsource extern \"C\" __global__ void paint(Pixel* out, int width, int height, "
                             "const Pixel* a, const Pixel* b, float t) { ";
    std::ofstream(script) << "size 320x200\nwait 2\nop user_kernel\nwait 3\n"
                          << head << "if (threadIdx.x == 3) *(volatile int*)16 = 1; }\ncompile\nwait 3\nstatus\n"
                          << head
                          << "volatile int spin = 0; while (true) spin = spin + 1; }\ncompile\nwait 20\nstatus\n"
                          << "starter gradient\nwait 1\ncompile\nwait 3\nstatus\nsave " << dir << "/canvas.png\nquit\n";
    const auto r = test::run("--backend cpu --kernel-time-limit 0.5 --script " + script);
    ASSERT_EQ(r.exit_code, 0) << r.output;
#if defined(__SANITIZE_ADDRESS__)
    EXPECT_NE(r.output.find("your kernel crashed: "), std::string::npos) << r.output; // no thread: host_runner.cpp
#else
    EXPECT_NE(r.output.find("your kernel crashed: thread (3,"), std::string::npos) << r.output;
#endif
    EXPECT_NE(r.output.find("your kernel ran past 0.5 s (an endless loop?): stopped"), std::string::npos) << r.output;
    const auto canvas = test::load_png(dir + "/canvas.png");
    PaintJob job;
    job.params = {.width = 320, .height = 200};
    EXPECT_TRUE(ref::matches_reference(job, canvas.pixels));
}

TEST(Gui, NoDisplayIsAClearErrorNotACrash) {
    const std::string command = std::string("env -u DISPLAY -u WAYLAND_DISPLAY ") + KCANVAS_BIN + " --backend cpu 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, pipe)) out += buf;
    const int status = pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 1) << out;
    EXPECT_NE(out.find(std::string("kcanvas: ") + kNoDisplayMessage + "\n"), std::string::npos) << out;
}

} // namespace
} // namespace kc
