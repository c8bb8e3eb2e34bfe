#pragma once
// `kcanvas exercise list | starter NAME | solution NAME | check NAME --kernel FILE|'GLOB' [--json]`:
// the shipped exercises, their kernels, and a submission (or a class folder of them) graded on the
// GPU or, without one, on the CPU backend. Nothing here writes a file: progress is the window's.
#include <optional>
#include <string>

namespace kc {

struct ExerciseFlags {
    std::string action;           // list, starter, solution or check
    std::string exercise;         // a shipped exercise's NAME, or a folder holding exercise.json
    std::string kernel;           // check: a .cu file, or a quoted glob ('submissions/*.cu') kcanvas expands
    bool json = false;            // check: one JSON line per file
    std::string backend = "auto"; // check: auto (a GPU when there is one), gpu or cpu
};

// At most this many files a --kernel glob may match (a class, not a disk).
inline constexpr std::size_t kMaxGradedFiles = 500;

// Runs the exercise command; the process exit code: 0 (list, print, every file passed), 1 (a
// submission failed), 2 (bad input: unknown exercise, unreadable file, no compiler, no match).
int run_exercise_command(const ExerciseFlags& f, std::optional<int> gpu);

} // namespace kc
