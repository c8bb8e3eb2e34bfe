#pragma once
// grade() on a worker thread, for the window: on the CPU a check compiles the submission and runs
// several launches in the sandbox, seconds of work, and the window keeps drawing and answering
// meanwhile (its frame loop polls take()). One check at a time.
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <variant>

#include "app/exercise/exercise.h"
#include "app/exercise/grader.h"

namespace kc {

using GradeOutcome = std::variant<GradeResult, GradeRefusal>;

class BackgroundGrade {
public:
    BackgroundGrade() = default;
    BackgroundGrade(BackgroundGrade&&) = default;
    BackgroundGrade& operator=(BackgroundGrade&&) = default;
    // A check still running is waited for (the sandbox bounds how long a launch may take).
    ~BackgroundGrade() = default;

    // Starts grading `source` (named `file_name` in compiler messages) against `exercise`; false,
    // and nothing starts, while a check runs.
    bool start(Exercise exercise, std::string source, std::string file_name, GradeOptions options);
    bool running() const { return outcome_.valid(); }
    // Seconds since the running check started (0 when none runs).
    double seconds() const;
    // The outcome once the check is done (handed over once), else nullopt at once: never waits.
    // A grader that threw is a refusal naming what it threw.
    std::optional<GradeOutcome> take();

private:
    std::future<GradeOutcome> outcome_;
    std::chrono::steady_clock::time_point started_;
};

} // namespace kc
