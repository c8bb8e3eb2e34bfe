#pragma once
// The panel's "Exercises" section: the shipped exercises, a ✓ beside those passed (kept in the
// user's data dir), each with Open. An open exercise shows its description, constraints and
// hints (one at a time); Open puts its starter in the kernel editor (asking first when the
// editor's text is worth keeping) with the exercise's default launch. Check grades the editor's
// text on a worker thread (exercise_result_view.h shows the outcome and the diff view); Show
// solution puts the reference solution in the editor, asking first the same way.
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/exercise/background_grade.h"
#include "app/exercise/exercise.h"
#include "app/exercise/grader.h"
#include "app/exercise/progress.h"
#include "render/pixel_texture.h"

namespace kc {

struct UiState;
struct PanelContext;
class Messages;

// A check's pictures as textures: the target, the student's, the diff (diff_picture).
struct ExercisePictures {
    PixelTexture target, yours, diff;
};

struct ExercisePanelState {
    std::optional<ExerciseProgress> progress;                // the passes on disk; nullopt without a data dir
    std::string progress_problem;                            // why the passes could not be read at start
    std::set<std::string> passed_unsaved;                    // passes of this session with nowhere to keep them
    std::vector<std::pair<std::string, std::string>> titles; // the shipped exercises: name, title
    int gpu = 0;                                             // --gpu: where a check runs on a CUDA backend
    std::optional<Exercise> open;                            // the exercise shown
    std::size_t hints_shown = 0;
    BackgroundGrade check;             // the running check, if one runs
    std::string checking;              // the exercise the running check grades
    std::optional<GradeResult> result; // the last check of the open exercise
    std::string refusal;               // ... or why it could not run here
    std::string saved_note;            // after a pass: where it was kept, or why not
    bool save_failed = false;
    ExercisePictures pictures; // result's pictures, uploaded when it came
};

// At start: the shipped exercises' titles, and the passes from the user's data dir (a problem
// reading them is shown in the section).
void load_exercise_progress(ExercisePanelState& x);
bool exercise_passed(const ExercisePanelState& x, const std::string& name);

// Each frame, before the panel: takes a finished check's outcome (records a pass, uploads the
// pictures). Needs the GL context current. A window with nothing moving still draws a frame every
// quarter second (idle_wait.h): the "Checking..." line turns and the outcome shows that soon,
// without frames at full rate taking a core from the check.
void poll_exercise_check(UiState& s, Messages& messages);

// The section's contents; call inside the panel window.
void exercise_section(UiState& s, const PanelContext& ctx);

} // namespace kc
