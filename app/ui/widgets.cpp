#include "app/ui/widgets.h"

#include <imgui_internal.h>

#include <fmt/format.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace kc {

namespace {

WidgetLog* g_log = nullptr; // like ImGui's own context: one per process, set by the frame loop

std::string visible_label(const char* label) {
    const char* end = std::strstr(label, "##");
    return end ? std::string(label, end) : std::string(label);
}

// Records the item ImGui just added. frame_w > 0: the item is a frame (input, slider, combo)
// followed by its label, and a click belongs in the frame; `parts` fields share the frame.
void record_item(const char* label, const std::string& value, float frame_w = 0.0f, int parts = 1) {
    if (!g_log) return;
    ImGuiContext& g = *GImGui;
    const ImGuiWindow* w = g.CurrentWindow;
    WidgetRecord r;
    r.label = visible_label(label);
    r.window = w->Name;
    r.min = g.LastItemData.Rect.Min;
    r.max = g.LastItemData.Rect.Max;
    const float cy = (r.min.y + r.max.y) * 0.5f;
    if (frame_w > 0.0f) {
        const float part_w = (frame_w - g.Style.ItemInnerSpacing.x * float(parts - 1)) / float(parts);
        r.target = ImVec2(r.min.x + part_w * 0.5f, cy);
    } else {
        r.target = ImVec2((r.min.x + r.max.x) * 0.5f, cy);
    }
    r.in_popup =
        (w->Flags & ImGuiWindowFlags_Popup) || (w->RootWindow && (w->RootWindow->Flags & ImGuiWindowFlags_Popup));
    r.clip_min = w->ClipRect.Min, r.clip_max = w->ClipRect.Max;
    r.visible = w->ClipRect.Contains(r.target) && w->Active;
    r.disabled = (g.LastItemData.InFlags & ImGuiItemFlags_Disabled) != 0;
    r.value = value;
    g_log->record(std::move(r));
}

} // namespace

WidgetLog* widget_log() { return g_log; }
void attach_widget_log(WidgetLog* log) { g_log = log; }

namespace ui {

void record_last_item(const char* label, const std::string& value) { record_item(label, value); }

bool Button(const char* label, const ImVec2& size) {
    const bool pressed = ImGui::Button(label, size);
    record_item(label, {});
    return pressed;
}

bool SmallButton(const char* label) {
    const bool pressed = ImGui::SmallButton(label);
    record_item(label, {});
    return pressed;
}

bool InvisibleButton(const char* str_id, const ImVec2& size, ImGuiButtonFlags flags) {
    const bool pressed = ImGui::InvisibleButton(str_id, size, flags);
    record_item(str_id, {});
    return pressed;
}

bool Checkbox(const char* label, bool* v) {
    const bool changed = ImGui::Checkbox(label, v);
    record_item(label, *v ? "on" : "off");
    return changed;
}

bool RadioButton(const char* label, bool active) {
    const bool pressed = ImGui::RadioButton(label, active);
    record_item(label, active ? "on" : "off");
    return pressed;
}

bool RadioButton(const char* label, int* v, int v_button) {
    const bool pressed = ImGui::RadioButton(label, v, v_button);
    record_item(label, *v == v_button ? "on" : "off");
    return pressed;
}

bool Selectable(const char* label, bool selected, ImGuiSelectableFlags flags, const ImVec2& size) {
    const bool pressed = ImGui::Selectable(label, selected, flags, size);
    record_item(label, selected ? "selected" : "");
    return pressed;
}

bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags) {
    // An open combo's list is a window of its own that replaces the last item: the box is
    // measured before, where it stays.
    // (Without a preview the box is only its arrow button.)
    const float frame_w = flags & ImGuiComboFlags_NoPreview ? ImGui::GetFrameHeight() : ImGui::CalcItemWidth();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImGuiWindow* parent = GImGui->CurrentWindow;
    const bool open = ImGui::BeginCombo(label, preview, flags);
    if (!open) {
        record_item(label, preview, frame_w);
    } else if (g_log) {
        WidgetRecord r;
        r.label = visible_label(label);
        r.window = parent->Name;
        r.min = at;
        r.max = ImVec2(at.x + frame_w, at.y + ImGui::GetFrameHeight());
        r.target = ImVec2(at.x + frame_w * 0.5f, at.y + ImGui::GetFrameHeight() * 0.5f);
        r.clip_min = parent->ClipRect.Min, r.clip_max = parent->ClipRect.Max;
        r.visible = parent->ClipRect.Contains(r.target);
        r.value = preview;
        g_log->record(std::move(r));
    }
    return open;
}

bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags) {
    const bool open = ImGui::CollapsingHeader(label, flags);
    record_item(label, open ? "open" : "closed");
    return open;
}

bool TreeNode(const char* label) {
    const bool open = ImGui::TreeNode(label);
    record_item(label, open ? "open" : "closed");
    return open;
}

bool SliderInt(const char* label, int* v, int v_min, int v_max, const char* format, ImGuiSliderFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::SliderInt(label, v, v_min, v_max, format, flags);
    record_item(label, std::to_string(*v), frame_w);
    return changed;
}

bool SliderFloat(const char* label, float* v, float v_min, float v_max, const char* format, ImGuiSliderFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::SliderFloat(label, v, v_min, v_max, format, flags);
    record_item(label, fmt::format("{:.4g}", *v), frame_w);
    return changed;
}

bool SliderFloat2(const char* label, float v[2], float v_min, float v_max, const char* format, ImGuiSliderFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::SliderFloat2(label, v, v_min, v_max, format, flags);
    record_item(label, fmt::format("{:.4g},{:.4g}", v[0], v[1]), frame_w, 2);
    return changed;
}

bool InputInt(const char* label, int* v, int step, int step_fast, ImGuiInputTextFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::InputInt(label, v, step, step_fast, flags);
    record_item(label, std::to_string(*v), step > 0 ? frame_w - 2 * ImGui::GetFrameHeight() : frame_w);
    return changed;
}

bool InputInt2(const char* label, int v[2], ImGuiInputTextFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::InputInt2(label, v, flags);
    record_item(label, fmt::format("{},{}", v[0], v[1]), frame_w, 2);
    return changed;
}

namespace {

// With ImGuiInputTextFlags_CallbackResize the caller's callback may move the buffer (a std::string
// that grows): what is recorded after the edit must be read from where the text is now, not from
// the pointer passed in (that was a heap-use-after-free, found by scripts/sanitize.sh).
struct BufferTracker {
    ImGuiInputTextCallback callback;
    void* user_data;
    char* buf;
};

int track_buffer(ImGuiInputTextCallbackData* data) {
    auto* t = static_cast<BufferTracker*>(data->UserData);
    data->UserData = t->user_data;
    const int result = t->callback ? t->callback(data) : 0;
    data->UserData = t;
    t->buf = data->Buf;
    return result;
}

} // namespace

bool InputText(const char* label, char* buf, size_t buf_size, ImGuiInputTextFlags flags,
               ImGuiInputTextCallback callback, void* user_data) {
    const float frame_w = ImGui::CalcItemWidth();
    BufferTracker t{callback, user_data, buf};
    const bool changed =
        ImGui::InputText(label, buf, buf_size, flags, callback ? &track_buffer : nullptr, callback ? &t : nullptr);
    record_item(label, t.buf, frame_w);
    return changed;
}

bool PathInput(const char* label, char* buf, size_t buf_size, bool failed) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID entered_id = ImGui::GetID((std::string(label) + "##entered").c_str()); // Enter, last frame
    if (storage->GetBool(entered_id)) {
        storage->SetBool(entered_id, false);
        if (failed) ImGui::SetKeyboardFocusHere(); // focused by code: ImGui selects the whole text
    }
    const bool entered =
        InputText(label, buf, buf_size, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if (entered) storage->SetBool(entered_id, true);
    return entered;
}

bool InputTextMultiline(const char* label, char* buf, size_t buf_size, const ImVec2& size, ImGuiInputTextFlags flags,
                        ImGuiInputTextCallback callback, void* user_data) {
    BufferTracker t{callback, user_data, buf};
    const bool changed = ImGui::InputTextMultiline(label, buf, buf_size, size, flags,
                                                   callback ? &track_buffer : nullptr, callback ? &t : nullptr);
    record_item(label, t.buf);
    return changed;
}

namespace {

void record_text_item(std::string_view text) {
    if (g_log && ImGui::IsItemVisible()) g_log->record_text(text);
}

// Formats once, for ImGui and the log alike.
std::string vformat(const char* fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(n > 0 ? std::size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
    return out;
}

} // namespace

void Text(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    ImGui::TextUnformatted(text.c_str());
    record_text_item(text);
}

void TextDisabled(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    ImGui::TextDisabled("%s", text.c_str());
    record_text_item(text);
}

void TextWrapped(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    ImGui::TextWrapped("%s", text.c_str());
    record_text_item(text);
}

void TextColored(const ImVec4& col, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const std::string text = vformat(fmt, args);
    va_end(args);
    ImGui::TextColored(col, "%s", text.c_str());
    record_text_item(text);
}

void TextUnformatted(const char* text, const char* text_end) {
    ImGui::TextUnformatted(text, text_end);
    record_text_item(text_end ? std::string_view(text, std::size_t(text_end - text)) : std::string_view(text));
}

void record_text(std::string_view text) { record_text_item(text); }

bool InputIntOnCommit(const char* label, int* v) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    ImGui::PushID(label);
    const ImGuiID draft_key = ImGui::GetID("draft"), editing_key = ImGui::GetID("editing");
    ImGui::PopID();
    int draft = storage->GetBool(editing_key) ? storage->GetInt(draft_key) : *v;
    InputInt(label, &draft, 0, 0);
    const bool active = ImGui::IsItemActive(), commit = ImGui::IsItemDeactivatedAfterEdit();
    storage->SetBool(editing_key, active);
    storage->SetInt(draft_key, draft);
    if (commit) *v = draft;
    return commit;
}

void SetTooltip(const std::string& text) {
    ImGui::SetTooltip("%s", text.c_str());
    if (g_log) g_log->record_text(text); // a tooltip is on top of everything: always visible
}

bool ColorButton(const char* desc_id, const ImVec4& col, ImGuiColorEditFlags flags, const ImVec2& size) {
    const bool pressed = ImGui::ColorButton(desc_id, col, flags, size);
    record_item(desc_id, {});
    return pressed;
}

} // namespace ui
} // namespace kc
