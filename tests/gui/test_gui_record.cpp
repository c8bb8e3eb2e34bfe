// The window's Time and Record sections, used as a person uses them (clicks, typing): a recording
// made from the panel holds the frames asked for, Cancel leaves nothing, the clock's pause and
// single frames move t and step mode, and a missing ffmpeg is said before recording.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/gif_file.h"
#include "tests/support/gui_script.h"

namespace kc::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(GuiRecord, TheRecordSectionRecordsTheFramesAskedForWhileTheWindowRuns) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_record", "size 96x64\nwait 2\nclick Record\nwait 2\n"
                                                 "click Frames\nkey ctrl+a\ntype 9\nkey enter\n"
                                                 "click Output file\ntype {dir}/out.gif\nkey enter\n"
                                                 "click Start recording\nexpect recorded 9 frames to\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const DecodedGif gif = decode_gif(run.dir + "/out.gif");
    ASSERT_TRUE(gif.ok);
    EXPECT_EQ(gif.frames.size(), 9u);
    EXPECT_EQ(gif.width, 96);
    EXPECT_EQ(gif.height, 64);
    EXPECT_EQ(listing(run.dir), (std::vector<std::string>{"out.gif", "script.txt"}));
}

TEST(GuiRecord, CancelKeepsNothing) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_record_cancel", "size 200x150\nwait 2\nclick Record\nwait 2\n"
                                                        "click Frames\nkey ctrl+a\ntype 5000\nkey enter\n"
                                                        "click Output file\ntype {dir}/long.gif\nkey enter\n"
                                                        "click Start recording\nexpect recording {dir}/long.gif\n"
                                                        "click Cancel recording\nexpect nothing was written\n"
                                                        "print Start recording\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_EQ(listing(run.dir), (std::vector<std::string>{"script.txt"}));
}

TEST(GuiRecord, PauseAndSingleFramesMoveTheClockAndStepModeWithIt) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_time", "size 64x32\nwait 2\nclick Step through blocks\nclick Time\nwait 2\n"
                                               "click Pause time\nwait 2\nprint Time (s)\nwait 5\nprint Time (s)\n"
                                               "print Run\nclick Frame >\nclick Frame >\nwait 2\nprint Time (s)\n"
                                               "click Play\nwait 10\nprint Time (s)\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    std::vector<double> times;
    std::istringstream in(run.result.output);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("widget Time (s): ")) times.push_back(std::stod(line.substr(17)));
    ASSERT_EQ(times.size(), 4u) << run.result.output;
    EXPECT_EQ(times[0], times[1]) << "paused, t stays";
    EXPECT_NEAR(times[2] - times[1], 2.0 / 30, 2e-3) << "two frames of 1/30 s";
    EXPECT_GT(times[3], times[2]) << "playing again";
}

TEST(GuiRecord, WithoutFfmpegTheFormatSaysSo) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string empty = ::testing::TempDir() + "/kc_gui_no_ffmpeg_path";
    fs::create_directories(empty);
    // The warning sits under the Record section, at the panel's foot: the wheel brings it into view.
    const std::string script =
        "wait 2\nclick Record\nwait 2\nclick Format\nclick MP4\nhover Output file\nwheel -10 190,400\nwait 2\n"
        "expect need the ffmpeg program\nclick Format\nclick GIF\nwait 2\n"
        "expect-not need the ffmpeg program\nquit\n";
    const std::string dir = ::testing::TempDir() + "/kc_gui_no_ffmpeg";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir + "/script.txt") << script;
    const auto r = run_shell("PATH=" + empty + " XDG_DATA_HOME=" + dir + " " + KCANVAS_BIN +
                             " --backend cpu --script " + dir + "/script.txt");
    EXPECT_EQ(r.exit_code, 0) << r.output;
}

// The script's `record FILE` before the Record section was ever drawn records at the canvas' size
// (it said "canvas size 0x0 is empty"); a file the user made read-only is refused, and kept.
TEST(GuiRecord, ScriptRecordTakesTheCanvasSizeAndKeepsAReadOnlyFile) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string ro = ::testing::TempDir() + "/kc_gui_record_ro";
    fs::remove_all(ro);
    fs::create_directories(ro);
    std::ofstream(ro + "/kept.gif") << "made by hand";
    fs::permissions(ro + "/kept.gif", fs::perms(0444));
    const auto run = run_script("kc_gui_record_script", "size 48x32\nwait 2\nrecord " + ro +
                                                            "/kept.gif\nexpect is read-only (mode 0444)\n"
                                                            "record {dir}/a.gif\nwait 150\nexpect recorded 150 "
                                                            "frames\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const DecodedGif gif = decode_gif(run.dir + "/a.gif");
    ASSERT_TRUE(gif.ok) << run.result.output;
    EXPECT_EQ(gif.frames.size(), 150u);
    EXPECT_EQ(gif.width, 48);
    EXPECT_EQ(gif.height, 32);
    std::ifstream in(ro + "/kept.gif");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "made by hand");
}

// The Record section with a long recording running, at 200x150.
constexpr const char* kLongRecording = "size 200x150\nwait 2\nclick Record\nwait 2\nclick Frames\nkey ctrl+a\n"
                                       "type 5000\nkey enter\nclick Output file\ntype {dir}/long.gif\nkey enter\n"
                                       "click Start recording\nexpect recording {dir}/long.gif\n";

// Ctrl+Q during a recording asks first (it dropped the recording silently): Cancel (and Esc)
// keep it running; Stop recording and quit writes nothing and quits.
TEST(GuiRecord, CtrlQDuringARecordingAsksFirst) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run =
        run_script("kc_gui_record_quit", std::string(kLongRecording) +
                                             "key ctrl+q\nexpect A recording to {dir}/long.gif is running\n"
                                             "click Cancel\nwait 3\nexpect-not is running (\n"
                                             "key ctrl+q\nexpect is running (\nkey escape\nwait 3\n"
                                             "expect-not is running (\nexpect recording {dir}/long.gif\n"
                                             "key ctrl+q\nexpect is running (\nclick Stop recording and quit\n"
                                             "wait 600\n");
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
    EXPECT_NE(run.result.output.find("script: click Stop recording and quit"), std::string::npos) << run.result.output;
    EXPECT_EQ(listing(run.dir), (std::vector<std::string>{"script.txt"})) << run.result.output;
}

// "Finish recording, then quit" records every frame, then quits.
TEST(GuiRecord, CtrlQCanLetTheRecordingFinishFirst) {
    KC_SKIP_WITHOUT_DISPLAY();
    const auto run = run_script("kc_gui_record_finish", "size 96x64\nwait 2\nclick Record\nwait 2\nclick Frames\n"
                                                        "key ctrl+a\ntype 40\nkey enter\nclick Output file\n"
                                                        "type {dir}/out.gif\nkey enter\nclick Start recording\n"
                                                        "key ctrl+q\nexpect is running (\n"
                                                        "click Finish recording, then quit\nwait 600\n");
    EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
    const DecodedGif gif = decode_gif(run.dir + "/out.gif");
    ASSERT_TRUE(gif.ok) << run.result.output;
    EXPECT_EQ(gif.frames.size(), 40u);
}

} // namespace
} // namespace kc::test
