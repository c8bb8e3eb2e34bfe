#include "app/core/autosave.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <utility>

#include "app/core/kernel_files.h"

namespace kc {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "autosave-";
constexpr std::string_view kUnseen = "-earlier-session";
constexpr std::size_t kStampSize = 19; // "YYYYmmdd-HHMMSS-mmm"

// "20261202-035510-123" for now, plus `extra_ms` (to step past a name already taken).
std::string stamp(int extra_ms) {
    const auto now = std::chrono::system_clock::now() + std::chrono::milliseconds(extra_ms);
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", std::localtime(&seconds));
    return fmt::format("{}-{:03}", text, ms);
}

// A name for a new copy in `dir` that no copy has yet.
fs::path new_copy_name(const fs::path& dir, bool unseen) {
    for (int step = 0;; ++step) {
        const std::string base = std::string(kPrefix) + stamp(step);
        std::error_code ec;
        if (fs::exists(dir / (base + ".cu"), ec) || fs::exists(dir / (base + std::string(kUnseen) + ".cu"), ec))
            continue;
        return dir / (base + (unseen ? std::string(kUnseen) : "") + ".cu");
    }
}

// "autosave-20261202-035510-123[-earlier-session].cu" -> its parts; nullopt for other names.
std::optional<EarlierVersion> version_of(const fs::path& file) {
    const std::string name = file.filename().string();
    if (!name.starts_with(kPrefix) || !name.ends_with(".cu")) return std::nullopt;
    std::string_view rest(name);
    rest.remove_prefix(kPrefix.size());
    rest.remove_suffix(3);
    if (rest.size() < kStampSize) return std::nullopt;
    const std::string_view s = rest.substr(0, kStampSize), tail = rest.substr(kStampSize);
    if (!tail.empty() && tail != kUnseen) return std::nullopt;
    EarlierVersion v{file,
                     fmt::format("{}-{}-{} {}:{}:{}", s.substr(0, 4), s.substr(4, 2), s.substr(6, 2), s.substr(9, 2),
                                 s.substr(11, 2), s.substr(13, 2)),
                     !tail.empty()};
    return v;
}

// The copies' names sort by time: the stamp comes first.
bool newer(const EarlierVersion& a, const EarlierVersion& b) { return a.file.filename() > b.file.filename(); }

void prune(const fs::path& dir, const fs::path& keep) {
    std::size_t seen = 0;
    for (const EarlierVersion& v : earlier_versions(dir)) {
        if (v.unseen || v.file == keep) continue; // never the text the user has not seen, nor the live file
        std::error_code ec;
        if (++seen > kKeptVersions) fs::remove(v.file, ec);
    }
}

} // namespace

AutosaveOpening open_autosave(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec))) return {}; // a link, even a dangling one, is there
    AutosaveOpening opening;
    std::string text;
    if (auto error = read_text_file(file.string(), text))
        opening.error = std::move(error);
    else
        opening.text = std::move(text);
    return opening;
}

std::vector<EarlierVersion> earlier_versions(const fs::path& dir) {
    std::vector<EarlierVersion> versions;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (auto v = version_of(it->path())) versions.push_back(std::move(*v));
    std::sort(versions.begin(), versions.end(), newer);
    return versions;
}

KeptVersion keep_earlier_version(const fs::path& dir, const std::string& text, bool unseen, const fs::path& keep) {
    const fs::path file = new_copy_name(dir, unseen);
    if (auto error = write_text_file_atomically(file.string(), text)) return {std::nullopt, *error};
    prune(dir, keep);
    return {file, {}};
}

fs::path mark_seen(const fs::path& file) {
    const auto v = version_of(file);
    if (!v || !v->unseen) return file;
    std::string name = file.filename().string();
    name.erase(name.size() - 3 - kUnseen.size(), kUnseen.size());
    std::error_code ec;
    fs::rename(file, file.parent_path() / name, ec);
    return ec ? file : file.parent_path() / name;
}

Autosave::Autosave(fs::path file, std::string editor_text, std::optional<std::string> shown)
    : target_(std::move(file)), on_disk_(std::move(editor_text)), known_(std::move(shown)) {
    if (const AutosaveOpening opening = open_autosave(target_); opening.error) write_elsewhere(*opening.error);
}

void Autosave::write_elsewhere(const std::string& why) {
    const fs::path unreadable = target_;
    target_ = new_copy_name(unreadable.parent_path(), false);
    known_.reset();
    notice_ = fmt::format("{}: it is left as it is, and this session autosaves to {}", why, target_.string());
}

std::optional<AutosaveResult> Autosave::tick(const std::string& text, Clock::time_point now) {
    if (text == on_disk_) {
        changed_at_.reset();
        return std::nullopt;
    }
    if (!changed_at_) changed_at_ = now;
    if (now - *changed_at_ < kDelay) return std::nullopt;
    changed_at_ = now; // after a failure, the next try is kDelay later
    return write(text);
}

std::optional<AutosaveResult> Autosave::flush(const std::string& text) {
    if (text == on_disk_) return std::nullopt;
    return write(text);
}

// Before a write: what the file holds now that this session did not show or write is kept as an
// earlier version (`kept_note` says where); a file that cannot be read moves the writes elsewhere.
// Returns why the write must not happen (the text could not be kept).
std::optional<std::string> Autosave::keep_unseen_text(std::string& kept_note) {
    const AutosaveOpening now = open_autosave(target_);
    if (now.error) {
        write_elsewhere(*now.error);
        kept_note = "; " + notice_;
        return std::nullopt;
    }
    if (!now.text || now.text == known_) return std::nullopt;
    const KeptVersion kept = keep_earlier_version(target_.parent_path(), *now.text, true, target_);
    if (!kept.file)
        return fmt::format("{} holds text from an earlier session that could not be kept first ({}), so it is not "
                           "written over",
                           target_.string(), kept.error);
    kept_note =
        fmt::format("; the earlier session's text it held is kept as {} (Earlier versions)", kept.file->string());
    return std::nullopt;
}

AutosaveResult Autosave::write(const std::string& text) {
    std::string kept_note;
    if (const auto refusal = keep_unseen_text(kept_note)) return {false, "autosave failed: " + *refusal};
    if (const auto error = write_text_file_atomically(target_.string(), text))
        return {false, "autosave failed: " + *error};
    on_disk_ = text, known_ = text;
    changed_at_.reset();
    return {true, "autosaved to " + target_.string() + kept_note};
}

std::optional<fs::path> autosave_file() {
    const auto dir = user_data_dir();
    if (!dir) return std::nullopt;
    return *dir / "autosave.cu";
}

} // namespace kc
