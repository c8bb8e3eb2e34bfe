#pragma once
// `kcanvas lesson list | check FILE|NAME | export FILE|NAME --out DIR`: the shipped lessons, a
// lesson run headless with every question answered by the model, and a lesson as slides.
#include <optional>
#include <string>

#include "render/backend.h"

namespace kc {

struct LessonFlags {
    std::string action; // list, check or export
    std::string lesson; // FILE.json or a shipped lesson's name
    std::string out;    // export: the folder
    bool force = false; // export: replace read-only files
    std::string backend = "auto";
};

// Runs the lesson command; the process exit code (0 ok, 1 a broken step, 2 bad input).
int run_lesson_command(const LessonFlags& f, std::optional<int> gpu);

} // namespace kc
