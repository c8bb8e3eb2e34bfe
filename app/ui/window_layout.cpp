#include "app/ui/window_layout.h"

#include <imgui.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <string_view>

#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

namespace {

constexpr float kMinCanvasWidth = 200.0f; // points the canvas keeps beside the widest panel

struct PanelLimits {
    float min_w, max_w;
};

PanelLimits panel_limits(const UiState& s) {
    const float display_w = ImGui::GetIO().DisplaySize.x;
    const float max_w = std::max(1.0f, display_w - kMinCanvasWidth);
    return {std::min(UiSettings::kMinPanelWidth * s.ui_scale, max_w), max_w};
}

float panel_width(const UiState& s) {
    const PanelLimits l = panel_limits(s);
    return std::clamp(s.settings.panel_width * s.ui_scale, l.min_w, l.max_w);
}

float panel_height(const UiState& s) { return std::max(1.0f, ImGui::GetIO().DisplaySize.y - s.status_bar_height); }

// The canvas pixel under the mouse, where no window covers the canvas (as last frame drew it).
void cursor_pixel(const UiState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse) return;
    if (const auto p = s.view.pixel_at({io.MousePos.x, io.MousePos.y})) {
        ImGui::SameLine();
        ui::Text("cursor (%d, %d)", p->x, p->y);
    }
}

void zoom_buttons(UiState& s) {
    CanvasView& v = s.view;
    const RectD area = v.viewport();
    const PointD middle{area.x + area.w / 2, area.y + area.h / 2};
    if (ui::Button("Fit")) v.fit();
    ImGui::SameLine();
    if (ui::Button("1:1")) v.one_to_one();
    ImGui::SameLine();
    if (ui::Button("-##zoom")) v.zoom_step(middle, -1);
    ImGui::SameLine();
    if (ui::Button("+##zoom")) v.zoom_step(middle, +1);
    ImGui::SameLine();
    const std::string zoom = fmt::format("{}{:.0f}%", v.fitted() ? "fit " : "", v.pixel_zoom() * 100);
    ui::TextUnformatted(zoom.c_str());
    cursor_pixel(s);
}

// Every message that is current, most serious first, each wrapped to the bar's width.
void messages(const UiState& s, const Messages& messages) {
    static const std::map<Topic, std::string_view> kPrefix = {{Topic::Paint, "Error: "},
                                                              {Topic::Launch, "Launch refused: "},
                                                              {Topic::ImageA, "Image A: "},
                                                              {Topic::ImageB, "Image B: "}};
    // The panel's own sections show these beside their controls; the bar shows the rest.
    const auto in_bar = [](Topic t) {
        return t != Topic::KernelFile && t != Topic::Autosave && t != Topic::Preset && t != Topic::Fault;
    };
    const bool fractal = uses_param(op_registry()[s.job.op], "zoom");
    ImGui::BeginGroup(); // continuation lines start under the first, right of the buttons
    ImGui::PushTextWrapPos(0.0f);
    bool any = false;
    for (const Message& m : messages.most_serious_first()) {
        if (!in_bar(m.topic)) continue;
        const auto prefix = kPrefix.find(m.topic);
        const std::string text = (prefix == kPrefix.end() ? "" : std::string(prefix->second)) + m.text;
        const bool coloured = m.severity != Severity::Info;
        if (coloured)
            ImGui::PushStyleColor(ImGuiCol_Text, m.severity == Severity::Warning ? kWarnColour : kErrorColour);
        ui::TextUnformatted(text.c_str());
        if (coloured) ImGui::PopStyleColor();
        any = true;
    }
    if (!any)
        ui::TextDisabled(
            "%s", fractal ? "Wheel, drag: move the fractal; Ctrl+wheel: zoom the view; middle or right drag: pan it"
                          : "Wheel: zoom the canvas; drag: pan it; + and -: zoom");
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

} // namespace

bool place_panel(const UiState& s) {
    if (s.settings.panel_hidden) return false;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float w = panel_width(s), h = panel_height(s);
    ImGui::SetNextWindowPos(ImVec2(s.settings.panel_right ? display.x - w : 0.0f, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    return true;
}

// A thin window over the panel's inner edge: dragging it sets the panel's width. ImGui's own
// window resizing would also take the panel's bottom edge, right where its last header is.
void draw_panel_edge(UiState& s) {
    if (s.settings.panel_hidden) return;
    const float grab = 3.0f * s.ui_scale, w = panel_width(s);
    const float edge = s.settings.panel_right ? ImGui::GetIO().DisplaySize.x - w : w;
    ImGui::SetNextWindowPos(ImVec2(edge - grab, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(2 * grab, panel_height(s)), ImGuiCond_Always);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav;
    ImGui::Begin("##panel edge", nullptr, flags);
    ui::InvisibleButton("Panel edge##splitter", ImGui::GetContentRegionAvail());
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive() && ImGui::GetIO().MouseDelta.x != 0.0f) {
        const float dx = ImGui::GetIO().MouseDelta.x * (s.settings.panel_right ? -1.0f : 1.0f);
        const PanelLimits l = panel_limits(s);
        s.settings.panel_width = std::clamp(w + dx, l.min_w, l.max_w) / s.ui_scale;
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
}

void draw_status_bar(UiState& s, const Messages& all) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0.0f, display.y), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(display.x, 0.0f), ImVec2(display.x, display.y * 0.5f));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::Begin("Status", nullptr, flags);
    zoom_buttons(s);
    ImGui::SameLine();
    if (ui::Button(s.settings.panel_hidden ? "Show panel" : "Hide panel"))
        s.settings.panel_hidden = !s.settings.panel_hidden;
    ImGui::SameLine();
    messages(s, all);
    s.status_bar_height = ImGui::GetWindowHeight();
    ImGui::End();
}

void draw_painting_note(const UiState& s, double painting_s, double last_frame_s) {
    const RectD area = canvas_area(s);
    const float margin = 8.0f * s.ui_scale;
    ImGui::SetNextWindowPos(ImVec2(float(area.x) + margin, float(area.y + area.h) - margin), ImGuiCond_Always,
                            ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.75f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;
    ImGui::Begin("##painting", nullptr, flags);
    if (last_frame_s > 0)
        ui::Text("painting... %.1f s (the last frame took %.1f s)", painting_s, last_frame_s);
    else
        ui::Text("painting... %.1f s", painting_s);
    ImGui::End();
}

std::optional<RectD> editor_area(const UiState& s) {
    constexpr float kShare = 0.4f;      // of the window's width: code and picture side by side
    constexpr float kMinWidth = 320.0f; // points at 100 %: about 40 characters of code
    if (s.settings.panel_hidden || !s.kernel.beside_canvas || !op_registry()[s.job.op].user_code) return std::nullopt;
    const float display_w = ImGui::GetIO().DisplaySize.x, panel = panel_width(s);
    const float room = display_w - panel - kMinCanvasWidth * s.ui_scale;
    const float w = std::min(display_w * kShare, room);
    if (w < kMinWidth * s.ui_scale) return std::nullopt;
    const float x = s.settings.panel_right ? display_w - panel - w : panel;
    return RectD{x, 0.0, w, panel_height(s)};
}

RectD canvas_area(const UiState& s) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    float taken = s.settings.panel_hidden ? 0.0f : panel_width(s); // the panel and the editor, on one side
    if (const auto editor = editor_area(s)) taken += float(editor->w);
    const float left = s.settings.panel_right ? 0.0f : taken;
    return {left, 0.0, std::max(1.0f, display.x - taken), panel_height(s)};
}

} // namespace kc
