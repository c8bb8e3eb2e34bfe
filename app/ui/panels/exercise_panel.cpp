#include "app/ui/panels/exercise_panel.h"

#include <imgui.h>

#include <fmt/format.h>

#include "app/ui/panel.h"
#include "app/ui/panel_text.h"
#include "app/ui/panels/exercise_result_view.h"
#include "app/ui/ui_state.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

void load_exercise_progress(ExercisePanelState& x) {
    for (const ShippedExercise& shipped : shipped_exercises()) { // their titles, read once
        Exercise e;
        const auto why = parse_exercise(shipped.json, shipped.starter, shipped.solution, std::string(shipped.name), e);
        x.titles.emplace_back(shipped.name, why ? "(unreadable: " + *why + ")" : e.title);
    }
    const auto file = exercise_progress_file();
    if (!file) {
        x.progress_problem = "passes are not kept: there is no data folder (set HOME or XDG_DATA_HOME)";
        return;
    }
    x.progress.emplace(*file);
    if (auto why = x.progress->load()) x.progress_problem = *why;
}

bool exercise_passed(const ExercisePanelState& x, const std::string& name) {
    return x.passed_unsaved.contains(name) || (x.progress && x.progress->passed(name));
}

namespace {

// A pass into the progress file; what the section says about it.
void record_pass(ExercisePanelState& x, const std::string& name) {
    x.save_failed = false;
    if (!x.progress) {
        x.passed_unsaved.insert(name);
        x.saved_note = x.progress_problem;
        x.save_failed = true;
        return;
    }
    std::string note;
    if (auto why = x.progress->mark_passed(name, &note)) {
        x.saved_note = "your pass could not be saved: " + *why;
        x.save_failed = true;
        return;
    }
    x.saved_note = "kept in " + x.progress->file().string() + (note.empty() ? "" : " (" + note + ")");
}

// Puts the exercise in the window: the starter into the editor (asking first when the editor's
// text is worth keeping), your kernel as the op, the exercise's default launch and canvas.
void open_exercise(UiState& s, const PanelContext& ctx, const std::string& name) {
    Exercise e;
    if (auto why = load_exercise(name, e)) {
        ctx.messages.error(Topic::Status, "exercise not opened: " + *why);
        return;
    }
    ExercisePanelState& x = s.exercise;
    x.open = std::move(e), x.hints_shown = 0, x.result.reset(), x.refusal.clear(), x.saved_note.clear();
    x.pictures = {};
    const ExerciseLaunch& l = x.open->launches.front();
    s.job.op = find_op("user_kernel")->index;
    s.job.launch = LaunchConfig{.block = l.block, .grid = l.grid, .auto_grid = false};
    s.edit_width = l.width, s.edit_height = l.height;
    ctx.requests.push(request::ResizeCanvas{l.width, l.height});
    if (x.open->inputs == ExerciseInputs::Default) // the grader's a and b: the app's own, without pictures
        for (int slot = 0; slot < 2; ++slot)
            if (s.sources.loaded(slot)) ctx.requests.push(request::ClearImage{slot});
    ctx.requests.push(request::ReplaceKernel{
        {x.open->starter, "", x.open->name + ".cu", "the starter of exercise " + x.open->name, true, ""}});
}

void exercise_list(UiState& s, const PanelContext& ctx) {
    const ExercisePanelState& x = s.exercise;
    wrapped_disabled("Kernels to finish, graded on their pictures (kcanvas exercise check NAME --kernel FILE):");
    if (!x.progress_problem.empty()) wrapped_text(kWarnColour, "Progress: " + x.progress_problem);
    for (const auto& [name, title] : x.titles) {
        ImGui::PushID(name.c_str());
        const bool open_it = ui::Button(fmt::format("Open {}", name).c_str());
        ImGui::SameLine();
        if (exercise_passed(x, name))
            wrapped_text(kGoodColour, "\u2713 " + title);
        else
            wrapped(title);
        ImGui::PopID();
        if (open_it) open_exercise(s, ctx, name);
    }
}

void hints(ExercisePanelState& x) {
    const Exercise& e = *x.open;
    if (e.hints.empty()) return;
    for (std::size_t i = 0; i < x.hints_shown && i < e.hints.size(); ++i)
        wrapped_text(kWarnColour, fmt::format("Hint {}: {}", i + 1, e.hints[i]));
    if (x.hints_shown >= e.hints.size()) return;
    if (ui::Button("Show a hint")) ++x.hints_shown;
    ImGui::SameLine();
    wrapped_disabled(fmt::format("{} of {} shown", x.hints_shown, e.hints.size()));
}

void start_check(UiState& s) {
    ExercisePanelState& x = s.exercise;
    GradeOptions options; // the window's backend: a GPU when it paints with CUDA, else the CPU's sandbox
    options.backend = s.backend == Backend::Cpu ? GradeBackend::Cpu : GradeBackend::Gpu;
    options.gpu = x.gpu;
    if (!x.check.start(*x.open, s.kernel.source, s.kernel.file_name, options)) return;
    x.checking = x.open->name, x.result.reset(), x.refusal.clear(), x.saved_note.clear();
    x.pictures = {};
}

void check_and_solution_buttons(UiState& s, const PanelContext& ctx) {
    ExercisePanelState& x = s.exercise;
    ImGui::BeginDisabled(x.check.running()); // one check at a time
    if (ui::Button("Check")) start_check(s);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ui::SetTooltip("Grades the editor's text on every launch the exercise names, against the target's picture");
    same_line_if_fits(button_width("Show solution"));
    if (ui::Button("Show solution")) // asks first when the editor's text is worth keeping (Undo replace)
        ctx.requests.push(request::ReplaceKernel{
            {x.open->solution, "", x.open->name + ".cu", "the solution of exercise " + x.open->name, true, ""}});
}

void open_part(UiState& s, const PanelContext& ctx) {
    ExercisePanelState& x = s.exercise;
    const Exercise& e = *x.open;
    wrapped_text(kGoodColour, e.title + (exercise_passed(x, e.name) ? "  \u2713 passed" : ""));
    if (ui::Button("All exercises")) {
        x.open.reset(), x.result.reset(), x.refusal.clear(), x.saved_note.clear();
        x.pictures = {};
        return;
    }
    wrapped(e.description);
    for (const std::string& line : constraint_lines(e)) wrapped_disabled("- " + line);
    if (e.inputs == ExerciseInputs::Noise)
        wrapped_disabled("Graded on pictures of random pixels; the canvas shows your kernel on the window's images.");
    hints(x);
    check_and_solution_buttons(s, ctx);
    exercise_result(x);
    ImGui::Separator(); // the exercise ends here; the usual panel follows
}

} // namespace

void poll_exercise_check(UiState& s, Messages& messages) {
    ExercisePanelState& x = s.exercise;
    auto outcome = x.check.take();
    if (!outcome) return;
    auto* result = std::get_if<GradeResult>(&*outcome);
    if (result && result->passed) record_pass(x, x.checking); // a pass counts even if another exercise is open now
    if (!x.open || x.open->name != x.checking) {              // closed meanwhile: the status bar says what came of it
        if (result)
            messages.post(Topic::Status, x.save_failed ? Severity::Error : Severity::Info,
                          "exercise " + x.checking + ": " + result->summary +
                              (x.saved_note.empty() ? "" : "; " + x.saved_note));
        x.saved_note.clear();
        return;
    }
    if (!result) {
        x.refusal = std::get<GradeRefusal>(*outcome).why;
        return;
    }
    x.result = std::move(*result);
    upload_result_pictures(x);
}

void exercise_section(UiState& s, const PanelContext& ctx) {
    if (!s.exercise.open) return exercise_list(s, ctx);
    open_part(s, ctx);
}

} // namespace kc
