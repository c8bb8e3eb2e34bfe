#include "app/window/canvas_input.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/ui/panels/lesson_panel.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"

namespace kc {

namespace {

// The mouse where side A's view would see it: over side B's half of the A/B split side by side,
// the same point of A's half, so the wheel and drags there zoom and pan both alike.
PointD mouse(const UiState& s) {
    const PointD at{ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y};
    const RectD& b = s.ab.b_view.viewport();
    if (!s.ab.on || s.ab.split.layout != AbLayout::SideBySide || !b.contains(at)) return at;
    return {at.x - b.x + s.view.viewport().x, at.y - b.y + s.view.viewport().y};
}

bool is_fractal(const UiState& s) { return uses_param(op_registry()[s.job.op], "zoom"); }

// The centre and zoom stay inside the parameter table's ranges, so a pan or zoom is never refused.
void clamp_to_table(OpParams& p) {
    const ParamSpec &x = *find_param("center-x"), &y = *find_param("center-y"), &z = *find_param("zoom");
    p.center_x = std::clamp(p.center_x, x.lo, x.hi);
    p.center_y = std::clamp(p.center_y, y.lo, y.hi);
    p.scale = std::clamp(p.scale, z.reciprocal / z.hi, z.reciprocal / z.lo);
}

// The fractal's centre follows a drag of `dx, dy` screen points.
void pan_fractal(UiState& s, float dx, float dy) {
    OpParams& p = s.job.params;
    const double canvas_pixels = 1.0 / s.view.zoom();
    p.center_x -= dx * canvas_pixels * p.scale;
    p.center_y -= dy * canvas_pixels * p.scale;
    clamp_to_table(p);
}

// The fractal zooms about the point under the cursor (canvas y counts from the top, as the kernels do).
void zoom_fractal(UiState& s, float notches) {
    OpParams& p = s.job.params;
    const PointD m = s.view.to_canvas(mouse(s));
    const double dx = m.x - p.width / 2.0, dy = m.y - p.height / 2.0;
    const double before_x = p.center_x + dx * p.scale, before_y = p.center_y + dy * p.scale;
    p.scale *= std::pow(0.8, notches);
    clamp_to_table(p);
    p.center_x = before_x - dx * p.scale;
    p.center_y = before_y - dy * p.scale;
    clamp_to_table(p);
}

// Whole wheel notches zoom the view one step each; fractions add up.
void wheel_zoom_view(UiState& s, float notches) {
    s.gesture.wheel += notches;
    const int steps = static_cast<int>(s.gesture.wheel);
    if (steps == 0) return;
    s.gesture.wheel -= static_cast<float>(steps);
    s.view.zoom_step(mouse(s), steps);
}

void handle_wheel(UiState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel == 0.0f || io.WantCaptureMouse || !s.view.pixel_at(mouse(s))) return;
    if (is_fractal(s) && !io.KeyCtrl)
        zoom_fractal(s, io.MouseWheel);
    else
        wheel_zoom_view(s, io.MouseWheel);
}

// A drag starts on the canvas (not over a window) and goes on wherever the mouse goes until released.
void handle_drag(UiState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    CanvasGesture& g = s.gesture;
    if (g.drag_button >= 0 && !io.MouseDown[g.drag_button]) g.drag_button = -1;
    if (g.drag_button < 0 && !io.WantCaptureMouse && s.view.viewport().contains(mouse(s))) {
        if (io.MouseClicked[0] && lesson_waits_for_click(s)) // the student's answer to "click the pixel"
            if (const auto p = s.view.pixel_at(mouse(s))) s.lesson.clicked = std::pair{p->x, p->y};
        for (int button : {0, 1, 2}) {
            if (!io.MouseClicked[button]) continue;
            g.drag_button = button;
            g.param_pan = button == 0 && is_fractal(s);
            break;
        }
        return; // the click itself moves nothing
    }
    if (g.drag_button < 0 || (io.MouseDelta.x == 0.0f && io.MouseDelta.y == 0.0f)) return;
    if (g.param_pan)
        pan_fractal(s, io.MouseDelta.x, io.MouseDelta.y);
    else
        s.view.pan(io.MouseDelta.x, io.MouseDelta.y);
}

// Typed characters, not key states: a press shorter than a frame still counts. Only a text field
// takes them first (keyboard navigation, on for the panel, has no use for + and -).
void handle_keys(UiState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    const RectD area = s.view.viewport();
    const PointD middle{area.x + area.w / 2, area.y + area.h / 2};
    for (ImWchar c : io.InputQueueCharacters) {
        if (c == '+' || c == '=') s.view.zoom_step(middle, +1);
        if (c == '-') s.view.zoom_step(middle, -1);
    }
}

} // namespace

void handle_canvas_input(UiState& s) {
    handle_wheel(s);
    handle_drag(s);
    handle_keys(s);
}

} // namespace kc
