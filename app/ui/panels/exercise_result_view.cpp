#include "app/ui/panels/exercise_result_view.h"

#include <imgui.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "app/ui/panel_text.h"
#include "app/ui/panels/exercise_panel.h"
#include "app/ui/widgets.h"
#include "gpu/kernel_check.h"
#include "gpu/pixel.h"

namespace kc {

namespace {

// The student's picture as the canvas shows it: unwritten pixels hatched, every pixel opaque.
std::vector<Pixel> yours_shown(const GradeResult& r) {
    std::vector<Pixel> shown(r.picture.size());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const int x = int(i % r.width), y = int(i / r.width);
        shown[i] = r.writers[i] == 0u ? uncovered_pixel(x, y) : r.picture[i];
        shown[i].a = 255;
    }
    return shown;
}

std::vector<Pixel> opaque(std::vector<Pixel> pixels) {
    for (Pixel& p : pixels) p.a = 255;
    return pixels;
}

// The launch the pictures are of: the first that failed, else the default one.
const LaunchResult* pictured_launch(const GradeResult& r) {
    if (r.first_failed && *r.first_failed < r.launches.size()) return &r.launches[*r.first_failed];
    return r.launches.empty() ? nullptr : &r.launches.front();
}

void checking_line(const ExercisePanelState& x) {
    static constexpr const char kSpinner[] = "|/-\\";
    const double s = x.check.seconds();
    wrapped_text(kWarnColour, fmt::format("Checking... {} {:.0f} s", kSpinner[int(s * 4) % 4], s));
    wrapped_disabled("kcanvas compiles your kernel and paints every launch of the exercise with it; "
                     "the window stays usable meanwhile.");
}

// Global reads and writes per thread against the exercise's budget, if it has one.
void budget_lines(const Exercise& e, const GradeResult& r) {
    auto line = [](const char* what, const AccessCount& c, const std::optional<unsigned>& most) {
        std::string text = fmt::format("Global {} per thread: at most {}", what, c.count);
        if (!c.thread.empty()) text += " (" + c.thread + ")";
        if (!most) return wrapped_disabled(text);
        text += fmt::format("; the budget is {}", *most);
        wrapped_text(c.count > *most ? kErrorColour : kGoodColour, text);
    };
    if (!e.max_reads && !e.max_writes && !r.reads.count && !r.writes.count) return;
    line("reads", r.reads, e.max_reads);
    line("writes", r.writes, e.max_writes);
}

void timing_line(const GradeResult& r) {
    if (r.starter_ms && r.submission_ms)
        wrapped(fmt::format("Time: the starter {:.3f} ms, yours {:.3f} ms", *r.starter_ms, *r.submission_ms));
    if (!r.timing_note.empty()) wrapped_disabled("Timing: " + r.timing_note);
}

// The three pictures side by side, each a third of the panel's width (one under the other
// where a third would be too small to see), each with its name above.
void pictures(const ExercisePanelState& x, const GradeResult& r) {
    const ExercisePictures& p = x.pictures;
    if (p.diff.empty()) return;
    if (const LaunchResult* l = pictured_launch(r)) {
        wrapped(fmt::format("{} with {}:", r.passed ? "The pictures" : "Where it differs", launch_name(l->launch)));
        wrapped_text(l->wrong || l->unwritten ? kErrorColour : kGoodColour,
                     fmt::format("{} pixels differ (red), {} unwritten (hatched)", l->wrong, l->unwritten));
    }
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float avail = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    const bool across = (avail - 2 * gap) / 3 >= ImGui::GetFontSize() * 5;
    const float w = across ? (avail - 2 * gap) / 3 : avail;
    const float h = w * float(p.diff.height()) / float(p.diff.width());
    const std::pair<const char*, const PixelTexture*> shown[] = {
        {"Target", &p.target}, {"Yours", &p.yours}, {"Diff", &p.diff}};
    for (std::size_t i = 0; i < 3; ++i) {
        if (i && across) ImGui::SameLine();
        ImGui::BeginGroup();
        ui::TextUnformatted(shown[i].first);
        ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(shown[i].second->id())), ImVec2(w, h));
        ImGui::EndGroup();
    }
}

void result_lines(const ExercisePanelState& x, const GradeResult& r) {
    if (r.passed) {
        wrapped_text(kGoodColour, fmt::format("Passed \u2713: your kernel {} on the {} backend", r.summary, r.backend));
        if (!x.saved_note.empty())
            x.save_failed ? wrapped_text(kErrorColour, x.saved_note) : wrapped_disabled("Your pass is " + x.saved_note);
    } else {
        wrapped_text(kErrorColour, fmt::format("Not yet: your kernel {} (the {} backend)", r.summary, r.backend));
    }
    if (!r.compiled && !r.compile_log.empty()) code_lines(r.compile_log);
    if (const LaunchResult* l = r.first_failed ? pictured_launch(r) : nullptr) {
        if (l->error) wrapped_text(kErrorColour, *l->error);
        if (l->violations.count) wrapped_text(kErrorColour, "Out of range: " + describe(l->violations));
    }
    if (x.open) budget_lines(*x.open, r);
    timing_line(r);
}

} // namespace

void upload_result_pictures(ExercisePanelState& x) {
    x.pictures = {};
    if (!x.result) return;
    const GradeResult& r = *x.result;
    const std::vector<Pixel> diff = diff_picture(r);
    if (diff.empty()) return; // the launch did not run: no pictures
    x.pictures.target.upload(r.width, r.height, opaque(r.target));
    x.pictures.yours.upload(r.width, r.height, yours_shown(r));
    x.pictures.diff.upload(r.width, r.height, diff);
}

void exercise_result(const ExercisePanelState& x) {
    if (x.check.running()) return checking_line(x);
    if (!x.refusal.empty()) return wrapped_text(kErrorColour, "The check cannot run here: " + x.refusal);
    if (!x.result) return;
    result_lines(x, *x.result);
    pictures(x, *x.result);
}

} // namespace kc
