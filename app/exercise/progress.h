#pragma once
// Which exercises the user has passed (the ✓ beside them), kept in the user's data dir as
// exercise-progress.json: {"kcanvas_exercise_progress": 1, "passed": ["gradient", ...]}. Read
// bounded, written atomically. A file that cannot be read is never written over: the first save
// after it moves it aside (exercise-progress.json.unreadable-N) and says so. Only the window
// records a pass; `kcanvas exercise check` changes nothing on disk.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kc {

// <user data dir>/exercise-progress.json; nullopt without a data dir (no HOME, no XDG_DATA_HOME).
std::optional<std::filesystem::path> exercise_progress_file();

inline constexpr std::size_t kMaxProgressBytes = std::size_t(1) << 16;
inline constexpr std::size_t kMaxProgressEntries = 1000;

class ExerciseProgress {
public:
    explicit ExerciseProgress(std::filesystem::path file) : file_(std::move(file)) {}

    // Reads the file; a missing file is no progress, not an error. Otherwise why it cannot be read
    // (the passes are then empty, and the next save keeps the file first).
    std::optional<std::string> load();
    bool passed(std::string_view exercise) const { return passed_.count(std::string(exercise)) != 0; }
    const std::set<std::string>& passed_exercises() const { return passed_; }
    // Records a pass and saves; why it could not be saved (the pass is still kept in memory).
    // `note` receives where an unreadable file was kept, if one was.
    std::optional<std::string> mark_passed(std::string_view exercise, std::string* note = nullptr);
    const std::filesystem::path& file() const { return file_; }

private:
    std::optional<std::string> save(std::string* note);

    std::filesystem::path file_;
    std::set<std::string> passed_;
    bool keep_first_ = false; // the file on disk could not be read: move it aside before writing
};

} // namespace kc
