#include "app/ui/panels/lesson_panel.h"

#include <imgui.h>

#include <fmt/format.h>

#include "app/ui/panel.h"
#include "app/ui/panel_text.h"
#include "app/ui/panels/preset_panel.h"
#include "app/ui/ui_state.h"
#include "app/ui/widgets.h"

namespace kc {

std::optional<std::string> open_lesson(LessonPanelState& l, const std::string& file_or_name) {
    Lesson lesson;
    if (auto e = load_lesson(file_or_name, lesson)) return e;
    l = LessonPanelState{};
    l.lesson = std::move(lesson);
    return std::nullopt;
}

namespace {

const LessonStep* current_step(const UiState& s) {
    const LessonPanelState& l = s.lesson;
    return l.lesson && l.step < l.lesson->steps.size() ? &l.lesson->steps[l.step] : nullptr;
}

bool waiting(const LessonPanelState& l, const LessonStep& step) {
    return step.question && !l.answer && l.problem.empty();
}

// The step's view, or the plain pixels while its question waits (the block view and the
// inspector would show the answer before the student gives one).
void show_view(UiState& s, const LessonStep& step) {
    const bool hide = waiting(s.lesson, step);
    s.job.view = hide ? View::Pixels : step.preset.job.view;
    s.teach.inspector = !hide;
    s.teach.pinned_pixel = hide ? std::nullopt : s.lesson.answer ? s.lesson.answer->mark : step.preset.inspect;
}

void go_to(LessonPanelState& l, std::size_t step) {
    l.step = step, l.shown.reset(), l.reply = {}, l.clicked.reset(), l.answer.reset(), l.problem.clear();
    l.right = false;
}

// The student's reply (or click) against the model's answer.
void answer(UiState& s, const LessonStep& step) {
    LessonPanelState& l = s.lesson;
    const std::string reply(l.reply.data());
    auto a = answer_question(*step.question, step.preset, {}); // the window does not time: see the CLI on a GPU
    if (const auto* e = std::get_if<std::string>(&a)) {
        l.problem = *e;
        return;
    }
    l.answer = std::get<Answer>(a);
    l.right = reply_matches(*l.answer, reply) ||
              (l.clicked && click_matches(*step.question, step.preset, l.clicked->first, l.clicked->second));
    show_view(s, step);
}

void question_part(UiState& s, const LessonStep& step) {
    LessonPanelState& l = s.lesson;
    ImGui::Separator();
    wrapped_text(kWarnColour, "Question: " + question_text(*step.question));
    if (!l.problem.empty()) {
        wrapped_text(kErrorColour, "This step is broken: " + l.problem);
        return;
    }
    if (!l.answer) {
        if (step.question->kind == QuestionKind::PixelOfThread)
            wrapped_disabled(l.clicked ? fmt::format("You clicked pixel ({}, {}).", l.clicked->first, l.clicked->second)
                                       : "Click the pixel on the canvas (or type its x, y).");
        ui::InputText("Your answer", l.reply.data(), l.reply.size());
        const bool given = l.reply[0] != 0 || l.clicked;
        ImGui::BeginDisabled(!given);
        if (ui::Button("Answer")) answer(s, step);
        ImGui::EndDisabled();
        if (!given) wrapped_disabled("Answer first; then kcanvas shows its own answer, why, and the picture.");
        return;
    }
    const Answer& a = *l.answer;
    if (a.skipped)
        wrapped_text(kWarnColour, "Not timed here: " + a.text);
    else
        wrapped_text(l.right ? kGoodColour : kErrorColour,
                     l.right ? "Right: " + a.text : "Not quite: the answer is " + a.text);
    wrapped("Why: " + a.why);
}

void lesson_list(UiState& s, const PanelContext& ctx) {
    wrapped_disabled("Guided steps with questions kcanvas answers itself (kcanvas --lesson NAME):");
    for (const ShippedLesson& shipped : shipped_lessons()) {
        ImGui::PushID(shipped.name.data());
        if (ui::Button(fmt::format("Open {}", shipped.name).c_str())) {
            if (auto e = open_lesson(s.lesson, std::string(shipped.name)))
                ctx.messages.error(Topic::Status, "lesson not opened: " + *e);
        }
        ImGui::PopID();
    }
}

} // namespace

bool apply_lesson_step(UiState& s, Requests& requests) {
    const LessonStep* step = current_step(s);
    if (!step || s.lesson.shown == s.lesson.step) return false;
    apply_preset(step->preset, s, requests);
    s.teach.stepping = step->step_blocks >= 0; // held at step_blocks: the clock stops while the step shows
    if (s.teach.stepping) s.teach.step_request = double(step->step_blocks);
    s.clock.paused = s.teach.stepping;
    show_view(s, *step);
    s.lesson.shown = s.lesson.step;
    return true;
}

bool lesson_waits_for_click(const UiState& s) {
    const LessonStep* step = current_step(s);
    return step && waiting(s.lesson, *step) && step->question->kind == QuestionKind::PixelOfThread;
}

void lesson_section(UiState& s, const PanelContext& ctx) {
    LessonPanelState& l = s.lesson;
    if (!l.lesson) return lesson_list(s, ctx);
    const LessonStep& step = l.lesson->steps[l.step];
    wrapped_disabled(l.lesson->title);
    ui::Text("Step %zu of %zu", l.step + 1, l.lesson->steps.size());
    ImGui::BeginDisabled(l.step == 0);
    if (ui::Button("Back")) go_to(l, l.step - 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(l.step + 1 >= l.lesson->steps.size());
    if (ui::Button("Next")) go_to(l, l.step + 1);
    ImGui::EndDisabled();
    same_line_if_fits(button_width("Close lesson"));
    if (ui::Button("Close lesson")) { // the picture stays; the teaching tools come back as they were
        l = LessonPanelState{};
        s.teach.inspector = true, s.teach.stepping = false, s.clock.paused = false;
        return;
    }
    wrapped_text(kGoodColour, step.title);
    wrapped(step.caption);
    if (step.question) question_part(s, step);
    ImGui::Separator(); // the lesson ends here; the usual panel follows
}

} // namespace kc
