#include "app/exercise/background_grade.h"

#include <exception>
#include <utility>

namespace kc {

bool BackgroundGrade::start(Exercise exercise, std::string source, std::string file_name, GradeOptions options) {
    if (running()) return false;
    started_ = std::chrono::steady_clock::now();
    outcome_ =
        std::async(std::launch::async,
                   [exercise = std::move(exercise), source = std::move(source), file_name = std::move(file_name),
                    options]() -> GradeOutcome {
                       try {
                           return grade(exercise, source, file_name, options);
                       } catch (const std::exception& e) { // out of memory, a filesystem error: said, not a crash
                           return GradeRefusal{std::string("the check stopped: ") + e.what()};
                       }
                   });
    return true;
}

double BackgroundGrade::seconds() const {
    if (!running()) return 0.0;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<GradeOutcome> BackgroundGrade::take() {
    if (!running() || outcome_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
    return outcome_.get();
}

} // namespace kc
