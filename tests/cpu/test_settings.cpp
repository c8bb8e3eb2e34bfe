// The window settings file: what is saved is read back; a missing or hand-broken file gives the
// defaults (clamped values), and saving leaves no temporary file behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

TEST(Settings, SavingIntoAMissingDirectorySaysWhy) {
    const auto e = save_settings("/nonexistent-dir/kcanvas/settings.conf", UiSettings{});
    ASSERT_TRUE(e);
    EXPECT_NE(e->find("/nonexistent-dir/kcanvas/settings.conf"), std::string::npos) << *e;
}

} // namespace
} // namespace kc
