// The window settings file: what is saved is read back; a missing or hand-broken file gives the
// defaults (clamped values), and saving leaves no temporary file behind.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "app/core/imgui_ini.h"
#include "app/core/settings.h"

namespace kc {
namespace {

std::string temp_path(const std::string& name) {
    const std::string dir = ::testing::TempDir() + "/kc_settings";
    std::filesystem::create_directories(dir);
    return dir + "/" + name;
}

TEST(Settings, SavedSettingsReadBack) {
    const std::string path = temp_path("roundtrip.conf");
    const UiSettings saved{.ui_scale_percent = 200, .panel_width = 512, .panel_right = true, .panel_hidden = true};
    ASSERT_FALSE(save_settings(path, saved));
    EXPECT_EQ(load_settings(path), saved);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(Settings, MissingFileGivesTheDefaults) { EXPECT_EQ(load_settings(temp_path("none.conf")), UiSettings{}); }

TEST(Settings, BadValuesAreClampedOrIgnored) {
    const std::string path = temp_path("bad.conf");
    std::ofstream(path) << "ui_scale_percent=5000\npanel_width=12\npanel_right=yes\nnonsense\nunknown=3\n";
    const UiSettings s = load_settings(path);
    EXPECT_EQ(s.ui_scale_percent, UiSettings::kMaxScalePercent);
    EXPECT_EQ(s.panel_width, UiSettings::kMinPanelWidth);
    EXPECT_FALSE(s.panel_right); // not a number: the default stays
}

TEST(Settings, NonFiniteAndHugeValuesKeepTheDefaults) {
    EXPECT_EQ(parse_settings("panel_width=nan\nui_scale_percent=inf\n"), UiSettings{});
    const UiSettings s = parse_settings("ui_scale_percent=1e300\npanel_width=-1e300\n");
    EXPECT_EQ(s.ui_scale_percent, UiSettings::kMaxScalePercent);
    EXPECT_EQ(s.panel_width, UiSettings::kMinPanelWidth);
}

TEST(Settings, SavingIntoAMissingDirectorySaysWhy) {
    const auto e = save_settings("/nonexistent-dir/kcanvas/settings.conf", UiSettings{});
    ASSERT_TRUE(e);
    EXPECT_NE(e->find("/nonexistent-dir/kcanvas/settings.conf"), std::string::npos) << *e;
}

// Issue 24: a settings file that is a FIFO blocked the start for ever, one that is a link to
// /dev/zero filled the memory. Now: the defaults, a reason, and the file is not written over.
TEST(Settings, OnlyARegularFileOfASaneSizeIsRead) {
    const std::string fifo = temp_path("fifo.conf"), zero = temp_path("zero.conf"), big = temp_path("big.conf");
    std::filesystem::remove(fifo), std::filesystem::remove(zero);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::filesystem::create_symlink("/dev/zero", zero);
    std::ofstream(big) << "ui_scale_percent=200\n" << std::string(kMaxSettingsBytes, '#');
    for (const auto& [path, why] : {std::pair{fifo, "not a regular file (a FIFO)"},
                                    {zero, "not a regular file (a device)"},
                                    {big, "over the 65536 bytes a settings file may hold"}}) {
        SCOPED_TRACE(path);
        const LoadedSettings loaded = read_settings(path);
        EXPECT_EQ(loaded.settings, UiSettings{});
        ASSERT_TRUE(loaded.problem);
        EXPECT_NE(loaded.problem->find(why), std::string::npos) << *loaded.problem;
        EXPECT_FALSE(loaded.writable);
    }
    const LoadedSettings missing = read_settings(temp_path("none.conf"));
    EXPECT_FALSE(missing.problem);
    EXPECT_TRUE(missing.writable);
}

// imgui.ini: what ImGui cannot be trusted with is left out and named; the rest is kept as it is.
TEST(ImGuiIni, TablesWithAbsurdColumnCountsAreLeftOut) {
    const std::string good = "[Window][Kernel Canvas]\nPos=0,0\nSize=390,860\nCollapsed=0\n"
                             "[Table][0x0A1B2C3D,3]\nRefScale=13\nColumn 0  Width=80 Visible=1 Order=0 Sort=0v\n"
                             "Column 2  Weight=1.0000\n";
    EXPECT_EQ(check_imgui_ini(good).text, good);
    EXPECT_TRUE(check_imgui_ini(good).dropped.empty());
    const CheckedIni checked = check_imgui_ini("[Table][0x0A1B2C3D,2147483647]\nColumn 0  Width=80\n" + good +
                                               "[Table][0x0A1B2C3E,100000]\n[Window][Huge]\nSize=100000000,5\n"
                                               "[Docking][Data]\n");
    EXPECT_EQ(checked.text, good + "[Window][Huge]\n");
    EXPECT_EQ(checked.dropped,
              (std::vector<std::string>{"'[Table][0x0A1B2C3D,2147483647]': 2147483647 columns, over 64",
                                        "'[Table][0x0A1B2C3E,100000]': 100000 columns, over 64",
                                        "'[Docking][Data]': not a [Window] or [Table] section",
                                        "1 line with values out of range or unknown"}));
    const CheckedIni huge = check_imgui_ini(std::string(kMaxImGuiIniBytes + 1, '\n'));
    EXPECT_TRUE(huge.text.empty());
    EXPECT_EQ(huge.dropped.size(), 1u);
}

} // namespace
} // namespace kc
