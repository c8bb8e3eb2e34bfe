#include "app/ui/overlay/ab_overlay.h"

#include <imgui.h>

#include <fmt/format.h>

#include <algorithm>

#include "app/ab/split_picture.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

namespace {

constexpr ImU32 kLine = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kShadow = IM_COL32(0, 0, 0, 160);

// "A  gradient 32x8 2d  12.3 us", what a side runs and its median.
std::string side_label(const char* side, const PaintJob& job, const ResolvedLaunch& r, const SideTime& t) {
    const OpInfo& op = op_registry()[job.op];
    std::string what = fmt::format("{}  {}", side, op.name);
    if (op.variants > 1) what += fmt::format(" {}", op.variant_names[job.params.variant]);
    if (!op.custom) what += fmt::format(" {}x{}", r.launch.block.x, r.launch.block.y);
    if (!op.custom && !op.user_code) what += fmt::format(" {}", mapping_name(r.launch.mapping));
    if (!op.custom && !op.user_code && r.launch.pixels_per_thread > 1)
        what += fmt::format(" {}px", r.launch.pixels_per_thread);
    if (t.samples) what += fmt::format("  {:.1f} us", t.median_us);
    return what;
}

// A label in a dark box at `at`, right-aligned there when `right`.
void label_box(ImDrawList* dl, ImVec2 at, const std::string& text, bool right) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float pad = ImGui::GetFontSize() * 0.3f;
    const ImVec2 min(right ? at.x - size.x - 2 * pad : at.x, at.y);
    dl->AddRectFilled(min, ImVec2(min.x + size.x + 2 * pad, min.y + size.y + 2 * pad), kShadow, pad);
    dl->AddText(ImVec2(min.x + pad, min.y + pad), kLine, text.c_str());
}

ImVec2 point(PointD p) { return ImVec2(float(p.x), float(p.y)); }

// The divider: a line over the picture and a handle as tall as it, in a window of its own so
// that a press on it is ImGui's (not the canvas' pan). Dragged, it follows the mouse.
void divider(UiState& s, ImDrawList* dl) {
    const CanvasView& v = s.view;
    const RectD shown = v.visible_rect();
    if (shown.empty()) return;
    const int column = divider_column(s.ab.split.divider, v.canvas_width());
    const float x = std::clamp(float(v.to_screen({double(column), 0}).x), float(shown.x), float(shown.x + shown.w));
    const float grip = ImGui::GetFontSize() * 0.8f;
    ImGui::SetNextWindowPos(ImVec2(x - grip / 2, float(shown.y)));
    ImGui::SetNextWindowSize(ImVec2(grip, float(shown.h)));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::Begin("##ab divider", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
    ui::InvisibleButton("A|B divider", ImVec2(grip, float(shown.h)));
    const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
    if (hot) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive() && v.canvas_width() > 0) {
        const double canvas_x = v.to_canvas({ImGui::GetIO().MousePos.x, shown.y}).x;
        s.ab.split.divider = std::clamp(canvas_x / v.canvas_width(), 0.0, 1.0);
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
    const float top = float(shown.y), bottom = float(shown.y + shown.h);
    dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), kShadow, 4.0f);
    dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), kLine, hot ? 3.0f : 1.5f);
    const float r = grip * 0.6f, mid = (top + bottom) / 2;
    dl->AddCircleFilled(ImVec2(x, mid), r, kLine);
    dl->AddTriangleFilled(ImVec2(x - r * 0.2f, mid - r * 0.5f), ImVec2(x - r * 0.2f, mid + r * 0.5f),
                          ImVec2(x - r * 0.8f, mid), kShadow);
    dl->AddTriangleFilled(ImVec2(x + r * 0.2f, mid - r * 0.5f), ImVec2(x + r * 0.2f, mid + r * 0.5f),
                          ImVec2(x + r * 0.8f, mid), kShadow);
}

} // namespace

AbAreas side_by_side_areas(const RectD& area, float gap) {
    const double half = std::max(0.0, (area.w - gap) / 2);
    return {{area.x, area.y, half, area.h}, {area.x + half + gap, area.y, half, area.h}};
}

void draw_ab_overlay(UiState& s) {
    if (!s.ab.on) return;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const float pad = ImGui::GetFontSize() * 0.4f;
    const PaintJob b = side_b_job(s.ab.split, s.job);
    const std::string a_text = side_label("A", s.job, s.resolved, s.ab.readout.a);
    std::string b_text = side_label("B", b, s.ab.b_resolved, s.ab.readout.b);
    if (const std::string own = differing_params(s.job, b); !own.empty()) b_text += fmt::format("  ({})", own);
    if (s.ab.split.layout == AbLayout::SideBySide) {
        const RectD a = s.view.visible_rect(), bv = s.ab.b_view.visible_rect();
        label_box(dl, point({a.x + pad, a.y + pad}), a_text, false);
        label_box(dl, point({bv.x + pad, bv.y + pad}), b_text, false);
        return;
    }
    divider(s, dl);
    const RectD shown = s.view.visible_rect();
    label_box(dl, point({shown.x + pad, shown.y + pad}), a_text, false);
    label_box(dl, point({shown.x + shown.w - pad, shown.y + pad}), b_text, true);
}

} // namespace kc
