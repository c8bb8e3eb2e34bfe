#pragma once
// The kernel editor's text, kept on disk while the user types (<data dir>/autosave.cu), so a crash
// or a quit loses nothing: written a little after a change (kDelay, so typing is not a write per
// key) and once more at quit, each time atomically (a failed write keeps the previous file).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace kc {

// What a write did: "autosaved to PATH", or why it failed.
struct AutosaveResult {
    bool ok = false;
    std::string message;
};

class Autosave {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr Clock::duration kDelay = std::chrono::seconds(2);

    // `on_disk`: the text the editor starts with; a change from it is what gets written.
    Autosave(std::filesystem::path file, std::string on_disk);
    const std::filesystem::path& file() const { return file_; }

    // Call once a frame: writes `text` when it has differed from the file for kDelay. Returns what
    // happened when it wrote ("autosaved to ...") or failed (why; it tries again kDelay later).
    std::optional<AutosaveResult> tick(const std::string& text, Clock::time_point now);
    // At quit: writes `text` now if it differs from the file.
    std::optional<AutosaveResult> flush(const std::string& text);

private:
    AutosaveResult write(const std::string& text);
    std::filesystem::path file_;
    std::string on_disk_;
    std::optional<Clock::time_point> changed_at_; // the first change not yet written
};

// <data dir>/autosave.cu (see user_data_dir()), or nullopt when there is no data dir.
std::optional<std::filesystem::path> autosave_file();

} // namespace kc
