// kcanvas record: frame counts, sizes and pixels checked against headless renders of the same t
// (the GIF decoded with giflib, the PNG sequence read back, the MP4 probed with ffprobe), bad
// flags refused before any frame, ffmpeg missing, and failed writes that leave nothing behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/core/time_clock.h"
#include "app/record/frame_encoder.h"
#include "app/record/recording.h"
#include "gpu/launch_config.h"
#include "gpu/thread_of_pixel.h"
#include "tests/support/gif_file.h"
#include "tests/support/image_file.h"
#include "tests/support/run_process.h"

namespace kc::test {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
    const std::string dir = ::testing::TempDir() + "/" + name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// What is in `dir`, by name (temporaries start with '.').
std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

LoadedImage headless(const std::string& dir, const std::string& name, const std::string& flags) {
    const std::string path = dir + "/" + name + ".png";
    const auto r = run("--headless --backend cpu --frames 1 " + flags + " --out " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return load_png(path);
}

// Skips when this machine has no headless OpenGL at all (overlays need it).
#define SKIP_WITHOUT_GL(result)                                                                                        \
    if ((result).exit_code == 1 && (result).output.find("cannot render headless") != std::string::npos)                \
    GTEST_SKIP() << (result).output

// Step mode at 10 blocks a second and 10 fps: frame k shows blocks 0 .. k-1 in launch order, the
// rest hatched; the last frame is the headless picture.
constexpr const char* kStepFlags =
    "--backend cpu --size 64x48 --view block --block 16x8 --step --fps 10 --blocks-per-second 10 --frames 26";

void expect_step_frame(const std::vector<Pixel>& frame, const LoadedImage& full, int k) {
    LaunchConfig l;
    l.block = {16, 8, 1};
    const Dim3 grid = resolved_grid(l, 64, 48);
    int wrong = 0;
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x) {
            const PixelWriter w = thread_of_pixel(l, grid, 64, 48, x, y);
            const Pixel want = w.block_in_launch < k ? full.pixels[y * 64 + x] : uncovered_pixel(x, y);
            wrong += !(frame[y * 64 + x] == want);
        }
    EXPECT_EQ(wrong, 0) << "frame " << k;
}

TEST(Record, AGifOfStepModeHoldsEveryFrameAsTheHeadlessPictureShowsIt) {
    const std::string dir = fresh_dir("kc_record_gif");
    const auto r = run(std::string("record ") + kStepFlags + " --plain --out " + dir + "/step.gif");
    SKIP_WITHOUT_GL(r);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const DecodedGif gif = decode_gif(dir + "/step.gif");
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.width, 64);
    EXPECT_EQ(gif.height, 48);
    ASSERT_EQ(gif.frames.size(), 26u);
    const LoadedImage full = headless(dir, "full", "--size 64x48 --view block --block 16x8");
    ASSERT_EQ(full.pixels.size(), 64u * 48);
    for (int k : {0, 1, 7, 23, 24, 25}) expect_step_frame(gif.frames[k], full, k);
    int total = 0; // delays add up to the frame times: 26 frames at 10 fps, 2.6 s
    for (int d : gif.delays) total += d;
    EXPECT_EQ(total, 260);
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"full.png", "step.gif"})); // no temporary left
}

TEST(Record, APngSequenceHoldsEveryFrame) {
    const std::string dir = fresh_dir("kc_record_png");
    const auto r = run(std::string("record ") + kStepFlags + " --plain --out " + dir + "/frames/");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    ASSERT_EQ(listing(dir + "/frames").size(), 26u);
    const LoadedImage full = headless(dir, "full", "--size 64x48 --view block --block 16x8");
    for (int k : {0, 5, 25}) {
        const LoadedImage frame = load_png(dir + "/frames/" + sequence_frame_name(k));
        ASSERT_EQ(frame.width, 64);
        ASSERT_EQ(frame.height, 48);
        expect_step_frame(frame.pixels, full, k);
    }
    // Again over the earlier sequence: replaced whole.
    const auto again = run("record --backend cpu --size 64x48 --frames 3 --plain --out " + dir + "/frames");
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(listing(dir + "/frames").size(), 3u);
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"frames", "full.png"}));
}

TEST(Record, ASweptWeightGoesFromTheFirstValueToTheLast) {
    const std::string dir = fresh_dir("kc_record_sweep");
    const auto r = run("record --backend cpu --op blend --size 48x32 --sweep weight=0:1 --frames 5 --plain --out " +
                       dir + "/sweep.gif");
    SKIP_WITHOUT_GL(r);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const DecodedGif gif = decode_gif(dir + "/sweep.gif");
    ASSERT_EQ(gif.frames.size(), 5u);
    for (auto [k, weight] : {std::pair{0, "0"}, {4, "1"}}) {
        const LoadedImage want =
            headless(dir, std::string("w") + weight, std::string("--op blend --size 48x32 --weight ") + weight);
        // 255 palette entries for the blend's many colours: close, not exact.
        double error = 0;
        int worst = 0;
        for (std::size_t i = 0; i < want.pixels.size(); ++i) {
            const Pixel a = gif.frames[k][i], b = want.pixels[i];
            for (int d : {a.r - b.r, a.g - b.g, a.b - b.b}) error += std::abs(d), worst = std::max(worst, std::abs(d));
        }
        EXPECT_LT(error / (3.0 * want.pixels.size()), 5.0) << "frame " << k;
        EXPECT_LE(worst, 24) << "frame " << k;
    }
}

TEST(Record, TheOverlaysAreInTheFramesAndEveryRunIsTheSame) {
    const std::string dir = fresh_dir("kc_record_overlays");
    const std::string flags = "record --backend cpu --size 320x240 --tutorial --view block --step --frames 4 --out ";
    const auto a = run(flags + dir + "/a.gif"), b = run(flags + dir + "/b.gif");
    SKIP_WITHOUT_GL(a);
    ASSERT_EQ(a.exit_code, 0) << a.output;
    ASSERT_EQ(b.exit_code, 0) << b.output;
    std::ifstream fa(dir + "/a.gif", std::ios::binary), fb(dir + "/b.gif", std::ios::binary);
    std::stringstream sa, sb;
    sa << fa.rdbuf(), sb << fb.rdbuf();
    EXPECT_EQ(sa.str(), sb.str()) << "two runs of one recording differ";
    const auto plain = run(flags + dir + "/plain.gif --plain");
    ASSERT_EQ(plain.exit_code, 0) << plain.output;
    const DecodedGif with = decode_gif(dir + "/a.gif"), without = decode_gif(dir + "/plain.gif");
    ASSERT_EQ(with.frames.size(), 4u);
    ASSERT_EQ(without.frames.size(), 4u);
    const auto& f = with.frames[3];
    const auto& g = without.frames[3];
    EXPECT_TRUE(f[0] == g[0]) << "the top-left corner has no overlay";
    int differ = 0; // the caption along the bottom
    for (int y = 200; y < 240; ++y)
        for (int x = 0; x < 320; ++x) differ += !(f[y * 320 + x] == g[y * 320 + x]);
    EXPECT_GT(differ, 1000) << "no caption";
}

bool have_ffmpeg() { return run_shell("command -v ffmpeg && command -v ffprobe").exit_code == 0; }

TEST(Record, AnMp4HasTheFramesAndSizeAsked) {
    if (!have_ffmpeg()) GTEST_SKIP() << "no ffmpeg/ffprobe here";
    const std::string dir = fresh_dir("kc_record_mp4");
    const auto r =
        run("record --backend cpu --size 96x64 --view block --step --frames 12 --fps 24 --out " + dir + "/a.mp4");
    SKIP_WITHOUT_GL(r);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto probe = run_shell("ffprobe -v error -count_frames -show_entries stream=nb_read_frames,width,height,"
                                 "r_frame_rate -of csv=p=0 " +
                                 dir + "/a.mp4");
    EXPECT_EQ(probe.output, "96,64,24/1,12\n");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"a.mp4"}));
}

TEST(Record, WithoutFfmpegVideoIsRefusedAndGifStillWorks) {
    const std::string dir = fresh_dir("kc_record_no_ffmpeg");
    fs::create_directories(dir + "/empty");
    const std::string env = "PATH=" + dir + "/empty XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN;
    for (const char* name : {"/a.mp4", "/a.webm"}) {
        const auto r = run_shell(env + " record --backend cpu --size 32x32 --frames 2 --out " + dir + name);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find("need the ffmpeg program"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(".gif or a folder of PNGs"), std::string::npos) << r.output;
    }
    const auto gif = run_shell(env + " record --backend cpu --size 32x32 --frames 2 --plain --out " + dir + "/a.gif");
    EXPECT_EQ(gif.exit_code, 0) << gif.output;
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"a.gif", "empty"}));
}

TEST(Record, AWriteThatFailsLeavesNoFile) {
    const std::string dir = fresh_dir("kc_record_fail");
    // A file size limit makes the GIF's writes fail part way (EFBIG; SIGXFSZ ignored).
    const auto gif =
        run_shell("trap '' XFSZ; ulimit -f 4; XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                  " record --backend cpu --size 256x256 --op mandelbrot --frames 8 --plain --out " + dir + "/big.gif");
    EXPECT_EQ(gif.exit_code, 2) << gif.output; // a file that cannot be written is exit 2, as the README says
    EXPECT_NE(gif.output.find("nothing was written"), std::string::npos) << gif.output;
    const auto png =
        run_shell("trap '' XFSZ; ulimit -f 4; XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                  " record --backend cpu --size 256x256 --op mandelbrot --frames 3 --plain --out " + dir + "/frames/");
    EXPECT_EQ(png.exit_code, 2) << png.output;
    EXPECT_NE(png.output.find("nothing was written"), std::string::npos) << png.output;
    // An ffmpeg that dies after a frame.
    fs::create_directories(dir + "/bin");
    std::ofstream(dir + "/bin/ffmpeg")
        << "#!/bin/sh\nhead -c 100 >/dev/null; echo 'pretend encoder broke' >&2; exit 1\n";
    fs::permissions(dir + "/bin/ffmpeg", fs::perms::owner_all);
    const auto mp4 = run_shell("PATH=" + dir + "/bin:/usr/bin:/bin XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                               " record --backend cpu --size 64x64 --frames 30 --plain --out " + dir + "/a.mp4");
    EXPECT_EQ(mp4.exit_code, 2) << mp4.output;
    EXPECT_NE(mp4.output.find("pretend encoder broke"), std::string::npos) << mp4.output;
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"bin"}));
    if (::geteuid() != 0) { // root writes into read-only folders
        fs::create_directories(dir + "/ro");
        ::chmod((dir + "/ro").c_str(), 0555);
        const auto ro = run("record --backend cpu --size 32x32 --frames 2 --out " + dir + "/ro/a.gif");
        EXPECT_EQ(ro.exit_code, 2) << ro.output;
        EXPECT_TRUE(listing(dir + "/ro").empty());
    }
}

// ffmpeg 5.1 on a full disk says "Error writing trailer ... No space left on device" and exits 0,
// its file unplayable. What ffmpeg wrote is checked before it replaces anything: its log holds no
// error, the file is not empty, and ffprobe (where installed) reads it. Fake ffmpegs (and a fake
// ffprobe) on PATH act out each failure; the file that was there stays.
TEST(Record, AnFfmpegThatFailsButExitsZeroReplacesNothing) {
    const std::string dir = fresh_dir("kc_record_ffmpeg_lies");
    fs::create_directories(dir + "/bin");
    const std::string take_frames = "#!/bin/sh\nfor a; do out=$a; done\n/bin/cat > \"$out\"\n";
    struct Case {
        std::string ffmpeg, ffprobe, said;
    };
    const std::vector<Case> cases = {
        {take_frames + "echo \"[mp4 @ 0x5] Error writing trailer of $out: No space left on device\" >&2\n", "",
         "Error writing trailer"},
        {"#!/bin/sh\n/bin/cat >/dev/null\n", "", "ffmpeg wrote nothing"},
        {take_frames, "#!/bin/sh\necho 'moov atom not found' >&2\nexit 1\n", "moov atom not found"},
    };
    for (const char* name : {"a.mp4", "a.webm"}) {
        for (const Case& c : cases) {
            std::ofstream(dir + "/" + name) << "the recording made yesterday";
            fs::remove(dir + "/bin/ffprobe");
            std::ofstream(dir + "/bin/ffmpeg") << c.ffmpeg << "exit 0\n";
            fs::permissions(dir + "/bin/ffmpeg", fs::perms::owner_all);
            if (!c.ffprobe.empty()) {
                std::ofstream(dir + "/bin/ffprobe") << c.ffprobe;
                fs::permissions(dir + "/bin/ffprobe", fs::perms::owner_all);
            }
            // Only the fakes: a real ffprobe elsewhere on PATH would find fault with the fake files too.
            const auto r = run_shell("PATH=" + dir + "/bin XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                                     " record --backend cpu --size 32x32 --frames 3 --plain --out " + dir + "/" + name);
            EXPECT_EQ(r.exit_code, 2) << c.said << "\n" << r.output;
            EXPECT_NE(r.output.find(c.said), std::string::npos) << r.output;
            EXPECT_NE(r.output.find("nothing was written"), std::string::npos) << r.output;
            std::ifstream in(dir + "/" + name);
            EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "the recording made yesterday") << c.said;
            EXPECT_EQ(listing(dir), (std::vector<std::string>{name, "bin"})) << c.said;
            fs::remove(dir + "/" + name);
        }
    }
}

// SIGINT, SIGTERM and SIGHUP (a closed terminal) end a recording cleanly: no temporary file is
// left, the old file stays, and the exit code is 128 + the signal's number, as the shell shows it.
TEST(Record, ASignalEndsTheRecordingAndLeavesNothing) {
    const std::string dir = fresh_dir("kc_record_signal");
    for (const char* signal : {"HUP", "INT", "TERM"}) {
        std::ofstream(dir + "/a.gif") << "kept";
        // Waits for the temporary to appear, then sends the signal; prints kcanvas' exit code.
        const auto r = run_shell("XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                                 " record --backend cpu --op mandelbrot --size 400x400 --frames 100000 --plain "
                                 "--out " +
                                 dir + "/a.gif & pid=$!; i=0; until ls -A " + dir +
                                 " | grep -q kcanvas || [ $i -gt 200 ]; do "
                                 "sleep 0.05; i=$((i+1)); done; sleep 0.2; kill -" +
                                 signal + " $pid; wait $pid; echo exit=$?");
        EXPECT_NE(r.output.find("cancelled; nothing was written"), std::string::npos) << signal << "\n" << r.output;
        const int number = std::string(signal) == "HUP" ? 1 : std::string(signal) == "INT" ? 2 : 15;
        EXPECT_NE(r.output.find("exit=" + std::to_string(128 + number)), std::string::npos) << signal << "\n"
                                                                                            << r.output;
        EXPECT_EQ(listing(dir), (std::vector<std::string>{"a.gif"})) << signal;
    }
}

// NaN and infinity pass CLI11's ranges (every comparison with NaN is false): every floating flag
// of record refuses them with the range.
TEST(Record, FloatingFlagsRefuseNanAndInfinity) {
    const std::string dir = fresh_dir("kc_record_nan");
    for (const char* flag : {"--speed", "--start", "--seconds", "--blocks-per-second", "--fps"}) {
        for (const char* value : {"nan", "inf"}) {
            const std::string args = std::string("record --backend cpu --size 16x16 --step ") + flag + " " + value +
                                     " --out " + dir + "/a.gif";
            // A timeout: a NaN that passes may start a recording that never ends.
            const auto r = run_shell("timeout 20 env XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN + " " + args);
            EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
            // "--speed: nan is not a number from 0.1 to 8", "--fps nan is not from 1 to 240"
            EXPECT_NE(r.output.find(std::string("record: ") + flag), std::string::npos) << args << "\n" << r.output;
            EXPECT_NE(r.output.find(std::string(value) + " is not"), std::string::npos) << args << "\n" << r.output;
        }
    }
    EXPECT_TRUE(listing(dir).empty());
}

TEST(Record, BadFlagsAreRefusedBeforeAnyFrame) {
    const std::string dir = fresh_dir("kc_record_bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--out " + dir + "/a.txt", "must end in .gif, .mp4 or .webm"},
        {"--out " + dir + "/missing/a.gif", "does not exist"},
        {"--fps 60 --out " + dir + "/a.gif", "at most 50 frames per second"},
        {"--fps 0 --out " + dir + "/a.mp4", "--fps 0 is not from 1 to 240"},
        {"--frames 0 --out " + dir + "/a.gif", "--frames"},
        {"--frames 5 --seconds 2 --out " + dir + "/a.gif", "excludes"},
        {"--sweep weight=0:2 --out " + dir + "/a.gif", "weight 2 is not a number from 0 to 1"},
        {"--sweep colour=0:1 --out " + dir + "/a.gif", "cannot sweep 'colour'"},
        {"--sweep weight=a:1 --out " + dir + "/a.gif", "must be numbers"},
        {"--sweep block=8x8:64x64 --frames 3 --out " + dir + "/a.gif", "(of 3): launch refused"},
        {"--op sobel --step --out " + dir + "/a.gif", "its own kernels"},
        {"--op mandelbrot --center-to 0 0 --out " + dir + "/a.gif", "add --sweep zoom"},
        {"--inspect 900,1 --out " + dir + "/a.gif", "not a pixel"},
        {"--op nope --out " + dir + "/a.gif", "unknown --op"},
        {"--block 64x64 --out " + dir + "/a.gif", "launch refused"},
        {"--size 64x64", "--out is required"},
    };
    for (const auto& [flags, message] : cases) {
        const auto r = run("record --backend cpu " + flags);
        EXPECT_EQ(r.exit_code, 2) << flags << "\n" << r.output;
        EXPECT_NE(r.output.find(message), std::string::npos) << flags << "\n" << r.output;
    }
    EXPECT_TRUE(listing(dir).empty());
}

TEST(Record, AZoomMovesGeometricallyToItsEndView) {
    const std::string dir = fresh_dir("kc_record_zoom");
    const auto r = run("record --backend cpu --op mandelbrot --size 64x48 --iter 64 --center -0.5 0 "
                       "--sweep zoom=1:50 --center-to -0.745 0.11 --frames 3 --plain --out " +
                       dir + "/frames/");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const LoadedImage last = load_png(dir + "/frames/" + sequence_frame_name(2));
    const LoadedImage want =
        headless(dir, "end", "--op mandelbrot --size 64x48 --iter 64 --center -0.745 0.11 --zoom 50");
    ASSERT_EQ(last.pixels.size(), want.pixels.size());
    EXPECT_TRUE(last.pixels == want.pixels);
}

// Step mode's default pace, whatever t the recording starts at (the window's recordings start at
// the loop's start or 0, `record --start` anywhere): block 0 in frame 0, every block by 90 %.
TEST(RecordPlan, StepModePaintsEveryBlockBy90PercentFromItsFirstFrame) {
    RecordPlan plan;
    plan.job.params.width = 640, plan.job.params.height = 400; // 32x8 blocks: 20 x 50
    plan.frames = 101, plan.fps = 30, plan.step = true;
    for (double start : {0.0, 7.5}) {
        plan.start = start;
        EXPECT_EQ(plan_frame(plan, 0).job.max_blocks, 0) << "start " << start;
        EXPECT_LT(plan_frame(plan, 89).job.max_blocks, 1000) << "start " << start;
        EXPECT_EQ(plan_frame(plan, 90).job.max_blocks, 1000) << "start " << start;
        EXPECT_EQ(plan_frame(plan, 100).job.max_blocks, 1000) << "start " << start;
    }
    // At a given pace, on from the blocks already painted.
    plan.blocks_per_second = 30, plan.first_blocks = 12;
    EXPECT_EQ(plan_frame(plan, 0).job.max_blocks, 12);
    EXPECT_EQ(plan_frame(plan, 10).job.max_blocks, 22);
}

TEST(TimeClock, FramesAreAtNOverFpsTimesTheSpeedWrappedInTheLoop) {
    TimeClock c;
    EXPECT_DOUBLE_EQ(c.at_frame(45, 30), 1.5);
    c.speed = 2;
    EXPECT_DOUBLE_EQ(c.at_frame(45, 30), 3.0);
    c.loop = true, c.loop_from = 1, c.loop_to = 2;
    EXPECT_DOUBLE_EQ(c.at_frame(45, 30), 1.0);
    EXPECT_NEAR(c.at_frame(50, 30), 1.0 + 1.0 / 3, 1e-12);
    c.set(0.5);
    EXPECT_DOUBLE_EQ(c.seconds, 1.5); // wrapped into [1, 2)
    c.paused = true;
    c.advance(10);
    EXPECT_DOUBLE_EQ(c.seconds, 1.5);
    c.loop = false, c.seconds = 0;
    c.step_frames(-1);
    EXPECT_DOUBLE_EQ(c.seconds, 0.0); // never before 0
    c.step_frames(3);
    EXPECT_NEAR(c.seconds, 0.1, 1e-12);
    c.set(42), c.set(3);
    EXPECT_DOUBLE_EQ(c.furthest, 42.0); // the time slider still reaches it
}

TEST(GifPalette, FewColoursStayExactAndManyShareAtMost255Entries) {
    std::vector<Pixel> few;
    for (int i = 0; i < 1000; ++i) few.push_back(make_pixel(i % 7 * 30, i % 5 * 50, 3));
    const auto exact = choose_palette(few, 255);
    EXPECT_EQ(exact.size(), 35u);
    for (Pixel p : few) EXPECT_NE(std::find(exact.begin(), exact.end(), p), exact.end());
    std::vector<Pixel> many;
    for (int r = 0; r < 256; r += 4)
        for (int g = 0; g < 256; g += 4) many.push_back(make_pixel(r, g, (r + g) / 2));
    for (int i = 0; i < 100000; ++i) many.push_back(make_pixel(10, 200, 30)); // a flat area stays exact
    const auto shared = choose_palette(many, 255);
    EXPECT_LE(shared.size(), 255u);
    EXPECT_GT(shared.size(), 200u);
    EXPECT_NE(std::find(shared.begin(), shared.end(), make_pixel(10, 200, 30)), shared.end());
}

} // namespace
} // namespace kc::test
