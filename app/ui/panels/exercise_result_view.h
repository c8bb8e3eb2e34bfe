#pragma once
// What a check of the open exercise found, under its Check button: "Checking..." while it runs;
// then Passed ✓ (and where the pass was kept), or the launch that failed and why (the
// compiler's log, the out-of-range access, the budget), the timing, and the diff view: the
// target, the student's picture and their diff side by side, scaled to the panel's width.
namespace kc {

struct ExercisePanelState;

// Makes the textures of the result's pictures (the GL context current).
void upload_result_pictures(ExercisePanelState& x);

// The result's lines and pictures; call inside the panel window.
void exercise_result(const ExercisePanelState& x);

} // namespace kc
