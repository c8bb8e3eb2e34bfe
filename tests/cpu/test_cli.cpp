// The command line: bad input gets a clear message and exit code 2; headless output is exact.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "gpu/cpu_emulator.h"

#ifdef KC_HAVE_CUDA
#include "gpu/cuda_device.h"
#endif
#include "gpu/registry.h"
#include "tests/support/image_file.h"
#include "tests/support/op_expectations.h"
#include "tests/support/run_process.h"
#include "tests/support/time_factor.h"

namespace kc {
namespace {

using test::run;

// Every flag and op a user can name, written out here rather than read from the parser or the
// registry the help is built from: a flag or op added, renamed or dropped fails this test until
// the lists below (and the README) say so.
const std::set<std::string> kDocumentedFlags = {"--help",
                                                "--headless",
                                                "--op",
                                                "--kernel",
                                                "--size",
                                                "--image",
                                                "--image2",
                                                "--level",
                                                "--radius",
                                                "--variant",
                                                "--iter",
                                                "--double",
                                                "--center",
                                                "--zoom",
                                                "--matmul-n",
                                                "--block",
                                                "--grid",
                                                "--pixels-per-thread",
                                                "--mapping",
                                                "--view",
                                                "--tutorial",
                                                "--weight",
                                                "--cell",
                                                "--frames",
                                                "--watchdog",
                                                "--out",
                                                "--json",
                                                "--timeline-out",
                                                "--timeline-in",
                                                "--backend",
                                                "--present",
                                                "--no-vsync",
                                                "--script",
                                                "--ui-scale",
                                                "--center-x",
                                                "--center-y",
                                                "--julia-re",
                                                "--julia-im",
                                                "--gpu",
                                                "--list-gpus",
                                                "--preset",
                                                "--ab",
                                                "--save-preset",
                                                "--print-command",
                                                "--version",
                                                "--force",
                                                "--user-settings",
                                                "--kernel-mode",
                                                "--strict",
                                                "--integer",
                                                "--lesson",
                                                "--kernel-time-limit"};
const std::vector<std::string> kDocumentedOps = {"gradient",   "checkerboard", "blend",    "grayscale",  "invert",
                                                 "add",        "threshold",    "box_blur", "sobel",      "histogram",
                                                 "mandelbrot", "julia",        "matmul",   "user_kernel"};

TEST(Cli, HelpDocumentsEveryFlagAndOp) {
    const auto r = run("--help");
    EXPECT_EQ(r.exit_code, 0);
    // Each option line of the help starts with its flag ("  -h,--help", "  --op TEXT=gradient ...").
    // (No std::regex: GCC 12 warns inside it under the sanitizers.)
    std::set<std::string> shown;
    std::string op_line;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t at = line.starts_with("  --")                                       ? 2
                               : line.starts_with("  -") && line.size() > 4 && line[4] == ',' ? 5
                                                                                              : 0;
        if (at == 0) continue;
        const std::size_t end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-", at);
        const std::string flag = line.substr(at, end - at);
        shown.insert(flag);
        if (flag == "--op") op_line = line;
    }
    EXPECT_EQ(shown, kDocumentedFlags);
    ASSERT_FALSE(op_line.empty()) << r.output;
    for (const std::string& op : kDocumentedOps) {
        EXPECT_NE(op_line.find(" " + op), std::string::npos) << op << " missing from: " << op_line;
        EXPECT_TRUE(find_op(op)) << op;
    }
    EXPECT_EQ(op_registry().size(), kDocumentedOps.size()) << "an op the list above does not document";
    EXPECT_NE(r.output.find("\n  bench "), std::string::npos) << r.output;
}

// `kcanvas exercise`: its usage in the top level's help (and so in the man page, help2man's), and
// check's flags in its own help.
TEST(Cli, HelpDocumentsTheExerciseCommandAndItsFlags) {
    const auto top = run("--help");
    EXPECT_NE(top.output.find("\n  exercise "), std::string::npos) << top.output;
    EXPECT_NE(top.output.find("check NAME --kernel FILE|'GLOB' [--json] [--backend auto|gpu|cpu]"), std::string::npos)
        << top.output;
    const auto check = run("exercise check --help");
    EXPECT_EQ(check.exit_code, 0) << check.output;
    for (const char* flag : {"--kernel", "--json", "--backend"})
        EXPECT_NE(check.output.find("  " + std::string(flag) + " "), std::string::npos) << flag << "\n" << check.output;
    const auto exercise = run("exercise --help");
    for (const char* sub : {"list", "starter", "solution", "check"})
        EXPECT_NE(exercise.output.find("  " + std::string(sub) + " "), std::string::npos) << sub << "\n"
                                                                                          << exercise.output;
}

TEST(Cli, BadInputExitsWithCode2AndSaysWhy) {
    struct Case {
        const char* args;
        const char* message;
    };
    for (const Case& c :
         {Case{"--headless --op nope", "unknown --op 'nope'"}, Case{"--headless --block 50x30", "1500 threads"},
          Case{"--headless --block 2000x1", "block x = 2000"}, Case{"--headless --block 1x1x65", "block z = 65"},
          Case{"--headless --block 0x8", "zero"}, Case{"--headless --grid 1x70000", "grid y = 70000"},
          Case{"--headless --block 32by8", "--block '32by8'"}, Case{"--headless --size 800", "--size '800'"},
          Case{"--headless --size 20000x10", "too large"}, Case{"--headless --weight 2", "--weight"},
          Case{"--headless --frames 0", "--frames"}, Case{"--headless --mapping diagonal", "unknown --mapping"},
          Case{"--headless --backend vulkan", "unknown --backend"}, Case{"--no-such-flag", "no-such-flag"},
          Case{"--out x.png", "--headless"},
          // Values: NaN, infinities and out-of-range numbers are refused with the name, value and range.
          Case{"--headless --weight nan", "--weight nan is not a number from 0 to 1"},
          Case{"--headless --weight inf", "--weight inf"}, Case{"--headless --weight -0.1", "--weight -0.1"},
          Case{"--headless --weight abc", "--weight 'abc' is not a number"},
          Case{"--headless --op mandelbrot --center nan nan", "--center: center-x nan"},
          Case{"--headless --op mandelbrot --center 1e308 1e308", "--center: center-x 1e+308"},
          Case{"--headless --op mandelbrot --center inf -inf", "--center: center-x inf"},
          Case{"--headless --op mandelbrot --center 0 -inf", "--center: center-y -inf"},
          Case{"--headless --op mandelbrot --center 0", "--center"},
          Case{"--headless --op mandelbrot --zoom 0", "--zoom 0"},
          Case{"--headless --op mandelbrot --zoom nan", "--zoom nan"},
          Case{"--headless --op mandelbrot --zoom 1e300", "--zoom 1e+300"},
          Case{"--headless --op mandelbrot --iter 0", "--iter 0"}, Case{"--headless --level 1.5", "--level 1.5"},
          Case{"--headless --radius 17", "--radius 17"}, Case{"--headless --cell 0", "--cell 0"},
          Case{"--headless --kernel-time-limit 0", "--kernel-time-limit"},
          Case{"--headless --op matmul --matmul-n 100", "multiple of 16"},
          Case{"--headless --size 1x1x1", "--size '1x1x1' is not WxH"}, Case{"--headless --size 0x8", "--size"},
          Case{"--headless --size 16385x8", "too large"},
          Case{"bench --pixels-per-thread 3", "--pixels-per-thread 3 is not 1 or 4"},
          Case{"bench --pixels-per-thread 1,2", "--pixels-per-thread 2 is not 1 or 4"}}) {
        const auto r = run(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    }
}

TEST(Cli, UserKernelBadInputExitsWithCode2AndSaysWhy) {
    struct Case {
        const char* args;
        const char* message;
    };
    const std::string gradient = std::string(KC_ASSETS) + "/kernels/gradient.cu";
    for (const Case& c :
         {Case{"--headless --kernel missing.cu", "--kernel: cannot read 'missing.cu'"},
          Case{"--kernel missing.cu", "--kernel: cannot read 'missing.cu'"}, // windowed too, before any window
          Case{"--headless --kernel " KC_ASSETS, "is a directory"}}) {
        const auto r = run(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    }
    auto r = run("--headless --op blend --kernel " + gradient);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("drop --op blend"), std::string::npos) << r.output;
}

// --kernel on a device or a pipe was read for ever (/dev/zero: memory until killed): it is refused
// at once, as scripts/fuzz.sh's fuzz_cli would find.
TEST(Cli, KernelThatIsNotARegularFileIsRefusedAtOnce) {
    const auto r = run("--headless --kernel /dev/zero");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
}

// Without a GPU the user's kernel compiles for the CPU and runs in the sandbox (issue 27).
TEST(Cli, UserKernelWithoutAGpuRunsOnTheCpuBackend) {
#ifdef KC_HAVE_CUDA
    if (!cuda_unavailable_reason()) GTEST_SKIP() << "a CUDA GPU is present: test_gpu_user_kernel runs the kernel";
#endif
    const auto r = run("--headless --size 64x32 --kernel " + std::string(KC_ASSETS) + "/kernels/gradient.cu");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("for cpu"), std::string::npos) << r.output;
}

TEST(Cli, HeadlessCpuWritesTheReferencePicture) {
    const std::string dir = ::testing::TempDir();
    for (const char* op : {"gradient", "checkerboard", "blend"}) {
        const std::string path = dir + "/kc_cli_" + op + ".png";
        std::filesystem::remove(path);
        const auto r = run(std::string("--headless --backend cpu --frames 2 --op ") + op +
                           " --size 320x200 --block 50x20 --weight 0.3 --cell 17 --out " + path);
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const auto img = test::load_png(path);
        ASSERT_EQ(img.width, 320);
        ASSERT_EQ(img.height, 200);
        PaintJob job;
        job.op = find_op(op)->index;
        job.params = {.width = 320, .height = 200, .weight = 0.3f, .cell = 17};
        job.launch.block = {50, 20, 1};
        EXPECT_TRUE(ref::matches_reference(job, img.pixels));
    }
}

TEST(Cli, HeadlessJsonReportsTimings) {
    const auto r = run("--headless --backend cpu --frames 3 --json --size 64x64 2>/dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto j = nlohmann::json::parse(r.output, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "not JSON: " << r.output;
    EXPECT_EQ(j["op"], "gradient");
    EXPECT_EQ(j["width"], 64);
    EXPECT_EQ(j["height"], 64);
    EXPECT_EQ(j["frames"], 3);
    EXPECT_EQ(j["backend"], "cpu");
    // Timing figures: a sample per frame, each positive and finite, min <= median <= mean * samples
    // (no sample exceeds the sum), last >= min; bandwidth is the frame's bytes over the median.
    for (const char* stage : {"kernel", "upload"}) {
        SCOPED_TRACE(stage);
        ASSERT_TRUE(j.contains(stage)) << r.output;
        const auto& t = j[stage];
        EXPECT_EQ(t["samples"], 3);
        const double last = t["last_us"], median = t["median_us"], mean = t["mean_us"], min = t["min_us"];
        for (double v : {last, median, mean, min}) {
            EXPECT_TRUE(std::isfinite(v)) << v;
            EXPECT_GT(v, 0.0);
            EXPECT_LT(v, 60e6); // under a minute for a 64x64 frame
        }
        EXPECT_LE(min, median);
        EXPECT_LE(min, last);
        EXPECT_LE(min, mean);
        EXPECT_LE(median, mean * 3);
    }
    const double bytes = j["bytes_per_frame"], gbs = j["kernel_gbs"], median = j["kernel"]["median_us"];
    EXPECT_EQ(bytes, 64.0 * 64 * 4); // gradient writes 4 bytes a pixel and reads none
    EXPECT_NEAR(gbs, bytes / (median * 1e3), 1e-9 * gbs);
}

TEST(Cli, UnwritableOutputIsAClearError) {
    const auto r = run("--headless --backend cpu --frames 1 --size 8x8 --out /nonexistent-dir/x.png");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("cannot write"), std::string::npos) << r.output;
}

// A file the user made read-only is not replaced, as cp refuses without -f: --out, --save-preset,
// record's --out and bench's --csv/--json-out are refused before any work, naming the file and
// --force; with --force it is replaced.
TEST(Cli, AReadOnlyOutputIsKeptUnlessForced) {
    const std::string dir = ::testing::TempDir() + "/kc_cli_read_only";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string kept = "made by hand, kept";
    for (const char* name : {"a.png", "p.json", "r.gif", "b.csv"}) {
        std::ofstream(dir + "/" + name) << kept;
        std::filesystem::permissions(dir + "/" + name, std::filesystem::perms(0444));
    }
    const std::string out = " --out " + dir + "/a.png";
    const std::vector<std::pair<std::string, std::string>> refused = {
        {"--headless --backend cpu --frames 1 --size 8x8" + out, "--out '" + dir + "/a.png' is read-only (mode 0444)"},
        {"--size 8x8 --save-preset " + dir + "/p.json", "--save-preset '" + dir + "/p.json' is read-only"},
        {"record --backend cpu --size 8x8 --frames 1 --plain --out " + dir + "/r.gif",
         "'" + dir + "/r.gif' is read-only"},
        {"bench --backend cpu --sizes 8x8 --csv " + dir + "/b.csv --json-out " + dir + "/b.json",
         "--csv '" + dir + "/b.csv' is read-only"},
    };
    for (const auto& [args, message] : refused) {
        const auto r = run(args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("add --force to replace it"), std::string::npos) << r.output;
    }
    for (const char* name : {"a.png", "p.json", "r.gif", "b.csv"}) {
        std::ifstream in(dir + "/" + name);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text, kept) << name;
    }
    const auto forced = run("--headless --backend cpu --frames 1 --size 8x8 --force" + out);
    EXPECT_EQ(forced.exit_code, 0) << forced.output;
    EXPECT_EQ(test::load_png(dir + "/a.png").pixels.size(), 64u);
}

// A name longer than the file system allows is refused with the other output checks, before any
// frame is rendered (it used to fail at the final rename, after all the work).
TEST(Cli, AnOutputNameTooLongIsRefusedBeforeRendering) {
    const std::string dir = ::testing::TempDir();
    const std::string long_name = std::string(300, 'n') + ".png";
    const std::string long_path = dir + "/" + std::string(5000, 'p').replace(200, 1, "/") + ".png";
    for (const std::string& path : {dir + "/" + long_name, long_path}) {
        const auto r = run("--headless --backend cpu --size 8x8 --frames 1 --out " + path);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find("bytes long, over the"), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("frames"), std::string::npos) << "nothing rendered: " << r.output;
        const auto rec =
            run("record --backend cpu --size 8x8 --frames 1 --plain --out " + path.substr(0, path.size() - 4) + ".gif");
        EXPECT_EQ(rec.exit_code, 2) << rec.output;
        EXPECT_NE(rec.output.find("bytes long, over the"), std::string::npos) << rec.output;
    }
}

// --save-preset with --headless --out writes both: the preset, and the picture it describes.
TEST(Cli, SavePresetWithOutWritesBoth) {
    const std::string dir = ::testing::TempDir() + "/kc_cli_preset_and_out";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto r = run("--headless --backend cpu --frames 1 --op checkerboard --size 16x8 --save-preset " + dir +
                       "/p.json --out " + dir + "/a.png");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/p.json")) << r.output;
    EXPECT_EQ(test::load_png(dir + "/a.png").pixels.size(), 16u * 8) << r.output;
}

// Huge hand-set grids on the CPU backend: past the emulator's limit they are refused at once with
// the numbers; below it, the blocks past the canvas are skipped, so the frame costs what its pixels
// cost and paints what the blocks that reach the canvas paint.
TEST(Cli, HugeGridsOnTheCpuBackendAreRefusedOrSkippedNeverSlow) {
    const auto start = std::chrono::steady_clock::now();
    for (const char* grid : {"99999999x1", "16384x16385", "2147483647x1"}) {
        const auto r = run(std::string("--headless --backend cpu --size 64x64 --frames 1 --grid ") + grid);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find("the cpu backend emulates at most 16777216 per frame"), std::string::npos) << r.output;
    }
    const std::string dir = ::testing::TempDir();
    for (const char* mapping : {"2d", "linear", "grid-stride", "columns"}) {
        SCOPED_TRACE(mapping);
        const std::string big = dir + "/kc_huge_grid.png", small = dir + "/kc_small_grid.png";
        const std::string common =
            std::string("--headless --backend cpu --size 64x64 --frames 1 --view block --mapping ") + mapping;
        ASSERT_EQ(run(common + " --grid 16000000x1 --out " + big).exit_code, 0);
        // 2d and columns: two blocks of 32x8 reach the canvas' first rows (columns: its first columns);
        // linear and grid-stride: sixteen blocks of 256 threads cover its 4096 pixels once.
        const bool tiled = std::string(mapping) == "2d" || std::string(mapping) == "columns";
        ASSERT_EQ(run(common + " --grid " + (tiled ? "2x1" : "16x1") + " --out " + small).exit_code, 0);
        if (std::string(mapping) == "grid-stride") continue; // its block view numbers blocks by pass: not comparable
        EXPECT_TRUE(test::load_png(big).pixels == test::load_png(small).pixels);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20 * test::time_factor()));
}

// Negative numbers after --center are values, not flags.
TEST(Cli, NegativeCentreIsAValue) {
    for (const char* centre : {"-0.5 0", "-0.75 -0.1", "0.25 -0"}) {
        const auto r = run(std::string("--headless --backend cpu --op mandelbrot --size 32x32 --frames 1 --iter 16 "
                                       "--center ") +
                           centre);
        EXPECT_EQ(r.exit_code, 0) << centre << "\n" << r.output;
    }
}

// A CPU matmul frame that would take more than a few seconds is refused up front with the estimate.
TEST(Cli, SlowCpuMatmulIsRefusedWithTheEstimate) {
    const double seconds =
        2.0 * 4096.0 * 4096.0 * 4096.0 / (kCpuMatmulFlopsPerThread * std::max(1u, std::thread::hardware_concurrency()));
    if (seconds <= kMaxCpuFrameSeconds) GTEST_SKIP() << "this machine's cores would run N = 4096 within the limit";
    const auto start = std::chrono::steady_clock::now();
    const auto r = run("--headless --backend cpu --op matmul --matmul-n 4096 --size 64x64 --frames 1");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("s per frame on the cpu backend"), std::string::npos) << r.output;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// Mandelbrot and Julia at 100000 iterations (pixels x iterations: 9.2e10 at 1280x720) are refused
// up front on the cpu backend, with the estimate and what to lower, instead of a 30 s frame.
TEST(Cli, SlowCpuFractalIsRefusedWithTheEstimate) {
    for (const char* op : {"mandelbrot", "julia"}) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = run(std::string("--headless --backend cpu --op ") + op + " --iter 100000 --size 1280x720");
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find(std::string(op) + " at 1280x720 with 100000 iterations is up to 9.22e+10 iterations"),
                  std::string::npos)
            << r.output;
        EXPECT_NE(r.output.find("it refuses frames over 5 s: lower the iterations to"), std::string::npos) << r.output;
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    }
    const auto fine = run("--headless --backend cpu --op mandelbrot --iter 256 --size 1280x720 --frames 1");
    EXPECT_EQ(fine.exit_code, 0) << fine.output; // the default iterations run
}

// bench refuses options that give no rows instead of printing an empty table.
TEST(Cli, BenchWithNoRowsSaysWhy) {
    const auto r = run("bench --backend cpu --pixels-per-thread 4 --ops gradient --sizes 64x64 --reps 1 --warmup 0 "
                       "--csv " +
                       ::testing::TempDir() + "/kc_norows.csv --json-out " + ::testing::TempDir() + "/kc_norows.json");
    if (r.exit_code == 1) GTEST_SKIP() << "no headless OpenGL here: " << r.output;
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no rows to time"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
