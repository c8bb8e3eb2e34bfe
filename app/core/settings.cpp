#include "app/core/settings.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "render/io/bounded_file.h"

namespace kc {

namespace {

// One line "key=value"; values are checked and clamped, so a hand-edited file cannot break the window.
void apply_line(UiSettings& s, const std::string& line) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) return;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || !std::isfinite(number)) return; // nan would pass any clamp
    // Clamped as doubles: 1e300 cast to int first would be undefined.
    if (key == "ui_scale_percent")
        s.ui_scale_percent = static_cast<int>(
            std::clamp(number, double(UiSettings::kMinScalePercent), double(UiSettings::kMaxScalePercent)));
    else if (key == "panel_width")
        s.panel_width = static_cast<float>(std::clamp(number, double(UiSettings::kMinPanelWidth), 4000.0));
    else if (key == "panel_right")
        s.panel_right = number != 0;
    else if (key == "panel_hidden")
        s.panel_hidden = number != 0;
}

std::string to_text(const UiSettings& s) {
    return fmt::format("# kcanvas window settings\nui_scale_percent={}\npanel_width={:.0f}\npanel_right={}\n"
                       "panel_hidden={}\n",
                       s.ui_scale_percent, s.panel_width, s.panel_right ? 1 : 0, s.panel_hidden ? 1 : 0);
}

std::string errno_text() { return std::strerror(errno); }

} // namespace

LoadedSettings read_settings(const std::string& path) {
    LoadedSettings out;
    std::string text;
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return out; // the first run
    if (auto e = read_bounded_file(path, kMaxSettingsBytes, "a settings file", text)) {
        out.problem = *e + "; the defaults apply, and the file is left as it is";
        out.writable = false;
        return out;
    }
    out.settings = parse_settings(text);
    return out;
}

UiSettings parse_settings(const std::string& text) {
    UiSettings s;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) apply_line(s, line);
    return s;
}

UiSettings load_settings(const std::string& path) { return read_settings(path).settings; }

std::optional<std::string> save_settings(const std::string& path, const UiSettings& settings) {
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return fmt::format("cannot write '{}': {}", temp, errno_text());
    const std::string text = to_text(settings);
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const bool synced = written && ::fsync(fd) == 0;
    const std::string why = errno_text();
    ::close(fd);
    if (!synced || std::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string error = fmt::format("cannot save '{}': {}", path, synced ? errno_text() : why);
        std::remove(temp.c_str());
        return error;
    }
    return std::nullopt;
}

} // namespace kc
