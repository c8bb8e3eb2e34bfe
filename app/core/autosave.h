#pragma once
// The kernel editor's text, kept on disk while the user types (<data dir>/autosave.cu), so a crash
// or a quit loses nothing: written a little after a change (kDelay, so typing is not a write per
// key) and once more at quit, each time atomically (a failed write keeps the previous file).
//
// Nothing typed is ever lost, so before a write replaces autosave.cu it reads it back:
//  - text there that this session neither showed nor wrote (an earlier session's work when the
//    editor started from --kernel or a preset, another window's) is first kept as an earlier
//    version, autosave-<time>-earlier-session.cu beside it;
//  - a file that cannot be read (no permission, a folder, a pipe, a device, too large) is never
//    written over: the session autosaves to autosave-<time>.cu instead and says so.
// Text the editor replaces (a starter, Load .cu, an earlier version) is kept the same way, as
// autosave-<time>.cu. The editor's "Earlier versions" menu lists these copies. Copies of text the
// user had in the editor are pruned to the newest kKeptVersions; an earlier session's text that
// this session never showed is kept until the user opens it from the menu (it is then renamed
// without "-earlier-session", an ordinary copy).
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kc {

// What a write did: "autosaved to PATH", or why it failed.
struct AutosaveResult {
    bool ok = false;
    std::string message;
};

// autosave.cu as the editor finds it at start: its text, or why it cannot be read (nullopt both:
// there is no such file).
struct AutosaveOpening {
    std::optional<std::string> text;
    std::optional<std::string> error;
};
AutosaveOpening open_autosave(const std::filesystem::path& file);

// Copies of text kept from being written over, in the autosave's folder.
inline constexpr std::size_t kKeptVersions = 20;
struct EarlierVersion {
    std::filesystem::path file;
    std::string when;    // "2026-12-02 03:55:10", from its name
    bool unseen = false; // an earlier session's text this session has not shown
};
// Newest first.
std::vector<EarlierVersion> earlier_versions(const std::filesystem::path& dir);
// Writes `text` as a new copy in `dir` (autosave-<time>[-earlier-session].cu), then prunes the
// ordinary copies beyond kKeptVersions, never `keep` (the session's own autosave file). Returns
// the copy's path, or why it could not be written (nothing is then pruned).
struct KeptVersion {
    std::optional<std::filesystem::path> file;
    std::string error;
};
KeptVersion keep_earlier_version(const std::filesystem::path& dir, const std::string& text, bool unseen,
                                 const std::filesystem::path& keep = {});
// A copy the user has now seen (opened from the menu): renamed without "-earlier-session" so the
// pruning may take it in turn. Returns its path after (the same on failure).
std::filesystem::path mark_seen(const std::filesystem::path& file);

class Autosave {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr Clock::duration kDelay = std::chrono::seconds(2);

    // `file`: autosave.cu. `editor_text`: the text the editor starts with; a change from it is what
    // gets written. `shown`: the file's text when the editor started from it (restored). A file
    // that exists but cannot be read sends this session's writes to another name (notice()).
    Autosave(std::filesystem::path file, std::string editor_text, std::optional<std::string> shown = std::nullopt);
    // Where this session writes: autosave.cu, or the other name.
    const std::filesystem::path& file() const { return target_; }
    // Why the writes go to another name ("cannot read ...: this session autosaves to ..."); empty: they do not.
    const std::string& notice() const { return notice_; }

    // Call once a frame: writes `text` when it has differed from the file for kDelay. Returns what
    // happened when it wrote ("autosaved to ...") or failed (why; it tries again kDelay later).
    std::optional<AutosaveResult> tick(const std::string& text, Clock::time_point now);
    // At quit: writes `text` now if it differs from the file.
    std::optional<AutosaveResult> flush(const std::string& text);

private:
    AutosaveResult write(const std::string& text);
    std::optional<std::string> keep_unseen_text(std::string& kept_note);
    void write_elsewhere(const std::string& why);
    std::filesystem::path target_;
    std::string on_disk_;              // the text last written (at start: the editor's)
    std::optional<std::string> known_; // what the file holds as far as this session knows (shown or written)
    std::string notice_;
    std::optional<Clock::time_point> changed_at_; // the first change not yet written
};

// <data dir>/autosave.cu (see user_data_dir()), or nullopt when there is no data dir.
std::optional<std::filesystem::path> autosave_file();

} // namespace kc
