#pragma once
// What the window remembers between runs: the UI scale and the panel's place and width. A small
// key=value file under $XDG_CONFIG_HOME/kcanvas/ (or ~/.config/kcanvas/), written atomically.
#include <cstddef>
#include <optional>
#include <string>

#include "app/core/user_dirs.h" // config_dir()

namespace kc {

struct UiSettings {
    static constexpr int kMinScalePercent = 75, kMaxScalePercent = 300;
    static constexpr float kMinPanelWidth = 300.0f; // points at 100 %: nothing in the panel is clipped
    int ui_scale_percent = 100;                     // times the monitor's content scale
    float panel_width = 390.0f;                     // points at 100 % (the panel grows with the scale)
    bool panel_right = false;                       // the panel on the window's right instead of its left
    bool panel_hidden = false;                      // the canvas takes the whole window
    bool operator==(const UiSettings&) const = default;
};

constexpr std::size_t kMaxSettingsBytes = std::size_t(64) << 10; // the file kcanvas writes is ~100 bytes

// The file as read: `problem` says why it could not be (not a regular file, too big, unreadable);
// then the defaults apply and it must not be written over (`writable` false). Missing is no problem.
struct LoadedSettings {
    UiSettings settings;
    std::optional<std::string> problem;
    bool writable = true;
};
LoadedSettings read_settings(const std::string& path);

// The file's text read: an unknown key or a bad value leaves the default for it.
UiSettings parse_settings(const std::string& text);

// Reads `path`; a missing file, an unknown key or a bad value leaves the default for it.
UiSettings load_settings(const std::string& path);
// Writes `path` through a temporary file, fsync and rename, so a crash never leaves half a file.
// Returns why it failed, if it did.
std::optional<std::string> save_settings(const std::string& path, const UiSettings& settings);

} // namespace kc
