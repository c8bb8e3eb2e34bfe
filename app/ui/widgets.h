#pragma once
// Drop-in wrappers of the ImGui widgets the panels use (same names and arguments as ImGui's), so
// that each control records where it was drawn while a script runs. The script's input verbs
// (click, hover, drag, type) find a control by its visible label in last frame's records and
// send real mouse and key events to it, the way a person would: no test sets the state behind a
// widget. When no log is attached, the wrappers cost one pointer test.
#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace kc {

// One control as the last frame drew it, in ImGui's (window) coordinates.
struct WidgetRecord {
    std::string label;         // the visible label (the part before "##")
    std::string window;        // the ImGui window it is in ("Kernel Canvas", "##Combo_00", ...)
    ImVec2 min, max;           // the whole item, label included
    ImVec2 target;             // where a click lands: the middle of its frame (inputs, sliders, combos)
    ImVec2 clip_min, clip_max; // the part of its window it can be seen in (scrolling moves it)
    bool in_popup = false;     // inside an open popup or combo list: drawn on top of everything
    bool visible = false;      // not scrolled or clipped out of its window
    bool disabled = false;
    std::string value; // what the control shows, where the wrapper knows it (combo preview, value)
};

// The controls one frame drew, and the text it showed through the ui:: text functions (only
// text that is not scrolled or collapsed away). Attached only while a script runs (see widget_log()).
class WidgetLog {
public:
    void begin_frame() { current_.clear(), current_text_.clear(); }
    void end_frame() { last_.swap(current_), last_text_.swap(current_text_); }
    void record(WidgetRecord r) { current_.push_back(std::move(r)); }
    void record_text(std::string_view text) { (current_text_ += text) += '\n'; }
    const std::vector<WidgetRecord>& last_frame() const { return last_; }
    const std::string& last_text() const { return last_text_; } // one line per text item

private:
    std::vector<WidgetRecord> current_, last_;
    std::string current_text_, last_text_;
};

// The log the wrappers write to, or nullptr (the default: nothing is recorded).
WidgetLog* widget_log();
void attach_widget_log(WidgetLog* log);

// Attaches a log for its lifetime.
class AttachedWidgetLog {
public:
    explicit AttachedWidgetLog(WidgetLog* log) { attach_widget_log(log); }
    ~AttachedWidgetLog() { attach_widget_log(nullptr); }
    AttachedWidgetLog(const AttachedWidgetLog&) = delete;
    AttachedWidgetLog& operator=(const AttachedWidgetLog&) = delete;
};

namespace ui {

bool Button(const char* label, const ImVec2& size = ImVec2(0, 0));
bool SmallButton(const char* label);
bool InvisibleButton(const char* str_id, const ImVec2& size, ImGuiButtonFlags flags = 0);
bool Checkbox(const char* label, bool* v);
bool RadioButton(const char* label, bool active);
bool RadioButton(const char* label, int* v, int v_button);
bool Selectable(const char* label, bool selected = false, ImGuiSelectableFlags flags = 0,
                const ImVec2& size = ImVec2(0, 0));
bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags = 0);
bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags = 0);
bool TreeNode(const char* label);
bool SliderInt(const char* label, int* v, int v_min, int v_max, const char* format = "%d", ImGuiSliderFlags flags = 0);
bool SliderFloat(const char* label, float* v, float v_min, float v_max, const char* format = "%.3f",
                 ImGuiSliderFlags flags = 0);
bool SliderFloat2(const char* label, float v[2], float v_min, float v_max, const char* format = "%.3f",
                  ImGuiSliderFlags flags = 0);
bool InputInt(const char* label, int* v, int step = 1, int step_fast = 100, ImGuiInputTextFlags flags = 0);
bool InputInt2(const char* label, int v[2], ImGuiInputTextFlags flags = 0);
bool InputText(const char* label, char* buf, size_t buf_size, ImGuiInputTextFlags flags = 0,
               ImGuiInputTextCallback callback = nullptr, void* user_data = nullptr);
bool InputTextMultiline(const char* label, char* buf, size_t buf_size, const ImVec2& size = ImVec2(0, 0),
                        ImGuiInputTextFlags flags = 0, ImGuiInputTextCallback callback = nullptr,
                        void* user_data = nullptr);
bool ColorButton(const char* desc_id, const ImVec4& col, ImGuiColorEditFlags flags = 0,
                 const ImVec2& size = ImVec2(0, 0));

// Text, recorded as shown (formatted) when visible, so scripts can check what a person reads.
void Text(const char* fmt, ...) IM_FMTARGS(1);
void TextDisabled(const char* fmt, ...) IM_FMTARGS(1);
void TextWrapped(const char* fmt, ...) IM_FMTARGS(1);
void TextColored(const ImVec4& col, const char* fmt, ...) IM_FMTARGS(2);
void TextUnformatted(const char* text, const char* text_end = nullptr);

// Records the last item (for controls drawn some other way, e.g. a plot the user hovers).
void record_last_item(const char* label, const std::string& value = {});
// Records text drawn some other way (one message broken into several lines) as one text item,
// when the last item drawn is visible.
void record_text(std::string_view text);

// A path field; true on Enter. A click into it selects the whole path (typing replaces it, as in
// a browser's address bar), and after an Enter whose path `failed` (known the frame after), it
// stays active with the path selected: Ctrl+A and typing never splice a new path into the old.
bool PathInput(const char* label, char* buf, size_t buf_size, bool failed);

// An int field (no step buttons) that changes *v only when the edit is done: on Enter, or when
// the field loses focus after an edit (a click elsewhere, Tab). Typing "1616" passes through
// "16", which must not launch. The typed value lives in ImGui's storage until then. Returns
// true on the frame it commits.
bool InputIntOnCommit(const char* label, int* v);

// ImGui::SetTooltip("%s", text), its text recorded as shown.
void SetTooltip(const std::string& text);

} // namespace ui
} // namespace kc
