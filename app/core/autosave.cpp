#include "app/core/autosave.h"

#include <utility>

#include "app/core/kernel_files.h"

namespace kc {

Autosave::Autosave(std::filesystem::path file, std::string on_disk)
    : file_(std::move(file)), on_disk_(std::move(on_disk)) {}

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

AutosaveResult Autosave::write(const std::string& text) {
    if (const auto error = write_text_file_atomically(file_.string(), text))
        return {false, "autosave failed: " + *error};
    on_disk_ = text;
    changed_at_.reset();
    return {true, "autosaved to " + file_.string()};
}

std::optional<std::filesystem::path> autosave_file() {
    const auto dir = user_data_dir();
    if (!dir) return std::nullopt;
    return *dir / "autosave.cu";
}

} // namespace kc
