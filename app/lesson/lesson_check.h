#pragma once
// `kcanvas lesson check`: every step's picture painted, every question answered by the model, and
// the picture checked against the model where the two can disagree. A problem names the step.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/lesson/lesson.h"
#include "gpu/pixel.h"

namespace kc {

// Paints a preset's picture on the backend at hand into `pixels` (width*height); why not, if not.
using StepPainter = std::function<std::optional<std::string>(const Preset&, std::vector<Pixel>& pixels)>;

// Paints steps on the CPU, as CI and a machine without a GPU do: the built-in ops by the grid
// emulator, the user's kernel compiled by the system's C++ compiler and run in the sandbox (one
// compile per distinct source).
StepPainter cpu_step_painter();

struct StepReport {
    std::size_t index = 0;
    std::optional<Answer> answer;       // the step's question answered
    std::optional<std::string> problem; // set: the step is broken
};

// One report a step, in order. `paint` may be empty (no pictures: the model alone).
std::vector<StepReport> check_lesson(const Lesson& lesson, const StepPainter& paint, const KernelTimer& timer);

} // namespace kc
