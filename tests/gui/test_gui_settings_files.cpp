// Issue 24: the window's own files, made hostile. An imgui.ini whose [Table] names 2^31 columns
// crashed ImGui at start; a settings.conf or imgui.ini that is a FIFO blocked the start for ever.
// Now the window starts, says in the status bar what it left out or could not read, and writes
// over no file it could not read.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "tests/support/gui_script.h"

namespace kc {
namespace {

using test::run_script;

// A config dir of the test's own with these files in it; returns XDG_DATA_HOME for run_script's
// kcanvas (whose config dir is <data home>/config/kcanvas).
std::string data_home_with(const std::string& name) {
    const std::string home = ::testing::TempDir() + "/kc_gui_settings_" + name;
    std::filesystem::remove_all(home);
    std::filesystem::create_directories(home + "/config/kcanvas");
    return home;
}

test::ProcessResult run_window(const std::string& home, const std::string& script) {
    const std::string path = home + "/script.txt";
    std::ofstream(path) << script;
    return test::run("--backend cpu --user-settings --script " + path, home);
}

TEST(GuiSettingsFiles, ATableOfTwoBillionColumnsIsLeftOutAndSaid) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string home = data_home_with("table"), ini = home + "/config/kcanvas/imgui.ini";
    std::ofstream(ini) << "[Window][Debug##Default]\nPos=60,60\nSize=400,400\n"
                          "[Table][0x0A1B2C3D,2147483647]\nRefScale=13\nColumn 0  Width=80\n";
    const auto r = run_window(home, "wait 3\nexpect 2147483647 columns, over 64\nquit\n");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(ini);
    const std::string kept((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(kept.find("2147483647"), std::string::npos) << "the window saves what it kept:\n" << kept;
}

TEST(GuiSettingsFiles, FifosAreNotReadNorWrittenOver) {
    KC_SKIP_WITHOUT_DISPLAY();
    const std::string home = data_home_with("fifo"), dir = home + "/config/kcanvas";
    ASSERT_EQ(::mkfifo((dir + "/imgui.ini").c_str(), 0600), 0);
    ASSERT_EQ(::mkfifo((dir + "/settings.conf").c_str(), 0600), 0);
    // The panel's side changes, so the settings would be saved at quit.
    const auto r = run_window(home, "wait 2\nexpect settings.conf': not a regular file (a FIFO)\n"
                                    "expect imgui.ini': not a regular file (a FIFO)\nclick Hide panel\nwait 2\nquit\n");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const char* file : {"/imgui.ini", "/settings.conf"})
        EXPECT_TRUE(std::filesystem::is_fifo(dir + file)) << file << " was written over";
}

} // namespace
} // namespace kc
