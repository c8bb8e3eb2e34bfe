#include "app/exercise/progress.h"

#include <fmt/format.h>

#include <cctype>

#include "app/core/json_file.h"
#include "app/core/user_dirs.h"
#include "render/io/atomic_file.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

namespace fs = std::filesystem;

std::optional<fs::path> exercise_progress_file() {
    const auto dir = user_data_dir();
    if (!dir) return std::nullopt;
    return *dir / "exercise-progress.json";
}

namespace {

const JsonLimits kProgressLimits{.max_bytes = kMaxProgressBytes, .max_depth = 4, .what = "exercise progress"};

// An exercise's name as progress keeps it: letters, digits, '-', '_' and '.', at most 64.
bool plausible_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
    return true;
}

std::optional<std::string> read_passes(const nlohmann::json& j, std::set<std::string>& out) {
    if (!j.is_object() || j.value("kcanvas_exercise_progress", 0) != 1)
        return std::string("expected {\"kcanvas_exercise_progress\": 1, \"passed\": [...]}");
    const auto passed = j.find("passed");
    if (passed == j.end() || !passed->is_array() || passed->size() > kMaxProgressEntries)
        return fmt::format("passed: expected a list of at most {} exercise names", kMaxProgressEntries);
    for (const auto& name : *passed) {
        if (!name.is_string() || !plausible_name(name.get<std::string>()))
            return fmt::format("passed: {} is not an exercise's name", json_excerpt(name));
        out.insert(name.get<std::string>());
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> ExerciseProgress::load() {
    passed_.clear();
    keep_first_ = false;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file_, ec))) return std::nullopt;
    std::string text;
    std::optional<std::string> why = read_bounded_file(file_.string(), kMaxProgressBytes, "exercise progress", text);
    if (!why) {
        auto j = parse_json(text, kProgressLimits);
        if (const auto* e = std::get_if<std::string>(&j))
            why = *e;
        else if (auto e = read_passes(std::get<nlohmann::json>(j), passed_))
            why = *e, passed_.clear();
    }
    if (!why) return std::nullopt;
    keep_first_ = true;
    return fmt::format("{}: {} (it is kept aside before progress is saved again)", escaped(file_.string()), *why);
}

std::optional<std::string> ExerciseProgress::mark_passed(std::string_view exercise, std::string* note) {
    if (!plausible_name(exercise)) return fmt::format("{} is not an exercise's name", kc::quoted(exercise, 40));
    passed_.insert(std::string(exercise));
    return save(note);
}

std::optional<std::string> ExerciseProgress::save(std::string* note) {
    std::error_code ec;
    fs::create_directories(file_.parent_path(), ec);
    if (keep_first_) {
        fs::path kept;
        for (int n = 1; n < 1000; ++n) {
            kept = file_.string() + fmt::format(".unreadable-{}", n);
            if (!fs::exists(fs::symlink_status(kept, ec))) break;
        }
        std::error_code moved;
        fs::rename(file_, kept, moved);
        if (moved && fs::exists(fs::symlink_status(file_, ec)))
            return fmt::format("{} could not be read and could not be kept aside ({}), so progress is not saved",
                               escaped(file_.string()), moved.message());
        if (note)
            *note = fmt::format("the unreadable {} is kept as {}", escaped(file_.string()), escaped(kept.string()));
        keep_first_ = false;
    }
    nlohmann::json j{{"kcanvas_exercise_progress", 1}, {"passed", passed_}};
    return write_file_atomically(file_.string(), j.dump(2) + "\n");
}

} // namespace kc
