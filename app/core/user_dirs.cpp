#include "app/core/user_dirs.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace kc {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// What a command printed on stdout, without the trailing newline ("" when it could not run).
std::string output_of(const char* command) {
    FILE* pipe = popen(command, "r");
    if (!pipe) return {};
    std::string out;
    std::array<char, 512> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) out += buffer.data();
    pclose(pipe);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

} // namespace

std::string config_dir() {
    fs::path dir;
    if (const std::string xdg = env("XDG_CONFIG_HOME"); !xdg.empty())
        dir = fs::path(xdg) / "kcanvas";
    else if (const std::string home = env("HOME"); !home.empty())
        dir = fs::path(home) / ".config" / "kcanvas";
    else
        return {};
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? std::string() : dir.string();
}

std::optional<fs::path> user_data_dir() {
    if (const std::string xdg = env("XDG_DATA_HOME"); !xdg.empty()) return fs::path(xdg) / "kcanvas";
    if (const std::string home = env("HOME"); !home.empty()) return fs::path(home) / ".local" / "share" / "kcanvas";
    return std::nullopt;
}

fs::path rescue_dir() {
    const auto data = user_data_dir();
    return data ? *data / "rescued" : fs::current_path();
}

fs::path pictures_dir_from(const std::string& answer, const std::string& home) {
    std::error_code ec;
    const fs::path dir(answer);
    const bool usable =
        dir.is_absolute() && fs::is_directory(dir, ec) && (home.empty() || !fs::equivalent(dir, fs::path(home), ec));
    return usable ? dir : fs::current_path(ec);
}

fs::path pictures_dir() {
    // xdg-user-dir reads ~/.config/user-dirs.dirs (and $XDG_PICTURES_DIR); without it, or
    // without a Pictures folder, the working directory.
    static const std::string answer = output_of("xdg-user-dir PICTURES 2>/dev/null");
    return pictures_dir_from(answer, env("HOME"));
}

} // namespace kc
