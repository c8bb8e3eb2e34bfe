#pragma once
// The panel's "Lesson" section: the shipped lessons to open, then the open lesson beside the
// canvas: step N of M, Back / Next, the caption, and the step's question. The student answers
// first (typed, or a click on the canvas for "which pixel"); then the reveal shows the model's
// answer, why, and the step's picture in its own view with the answer's pixel inspected.
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "app/lesson/lesson.h"

namespace kc {

struct UiState;
struct PanelContext;
class Requests;

struct LessonPanelState {
    std::optional<Lesson> lesson;
    std::size_t step = 0;
    std::optional<std::size_t> shown;           // the step whose picture the window holds (set when applied)
    std::array<char, 64> reply{};               // the typed answer
    std::optional<std::pair<int, int>> clicked; // the canvas pixel clicked while a question waits
    std::optional<Answer> answer;               // the model's, once the student has answered
    std::string problem;                        // the model could not answer (a broken step)
    bool right = false;                         // the student's reply was the answer
};

// Opens a lesson (FILE or a shipped NAME) at its first step; why not, if it cannot be read.
std::optional<std::string> open_lesson(LessonPanelState& l, const std::string& file_or_name);

// Each frame, before the panel: the step's picture into the window when the step changed (true then).
bool apply_lesson_step(UiState& s, Requests& requests);

// Whether a lesson's question waits for a click on the canvas (window/canvas_input.cpp).
bool lesson_waits_for_click(const UiState& s);

// The section's contents; call inside the panel window.
void lesson_section(UiState& s, const PanelContext& ctx);

} // namespace kc
