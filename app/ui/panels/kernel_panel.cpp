#include "app/ui/panels/kernel_panel.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <string_view>
#include <utility>

#include "app/core/autosave.h"
#include "app/core/kernel_editor.h"
#include "app/core/kernel_files.h"
#include "app/ui/ui_scale.h"
#include "app/ui/widgets.h"
#include "app/ui/window_layout.h"
#include "gpu/user_kernel.h"

namespace kc {

namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(1.0f, 0.35f, 0.35f, 1.0f);

// The code box's callback: grows the std::string it edits (CallbackResize), and puts the cursor on
// a clicked error line, selecting the line (CallbackAlways, while the box has the keyboard).
int code_box_callback(ImGuiInputTextCallbackData* data) {
    auto* k = static_cast<KernelEditorState*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        k->source.resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = k->source.data();
    }
    if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways && k->goto_line > 0) {
        const auto [start, end] = line_span(std::string_view(data->Buf, std::size_t(data->BufTextLen)), k->goto_line);
        data->CursorPos = data->SelectionStart = start; // ImGui scrolls the box to a moved cursor
        data->SelectionEnd = end;
        k->goto_line = 0;
    }
    return 0;
}

void wrapped(const ImVec4& colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

// SameLine when an item `width` wide still fits on this line, else a new line (the editor's menus at 200 %).
void same_line_if_fits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

// The editor's row of menus: starters, earlier versions (autosave.h), Undo replace. Each asks
// before it replaces text that is in no file (the "Replace the kernel?" dialog).
void editor_menus(KernelEditorState& k, const PanelContext& ctx) {
    const float combo_w = ImGui::GetFontSize() * 7.0f, label_w = ImGui::CalcTextSize("Earlier versions").x;
    ImGui::SetNextItemWidth(combo_w);
    if (ui::BeginCombo("Starter", "load...")) {
        for (const StarterKernel& starter : starter_kernels())
            if (ui::Selectable(std::string(starter.title).c_str()))
                ctx.requests.push(request::ReplaceKernel{starter_text(starter)});
        ImGui::EndCombo();
    }
    same_line_if_fits(combo_w + label_w);
    ImGui::SetNextItemWidth(combo_w);
    if (ui::BeginCombo("Earlier versions", "restore...")) {
        const auto versions = earlier_versions(std::filesystem::path(k.autosave_path).parent_path());
        if (k.autosave_path.empty() || versions.empty()) ui::TextDisabled("none kept yet");
        for (const EarlierVersion& v : versions) {
            const std::string label = v.when + (v.unseen ? " (an earlier session's, not seen yet)" : "");
            if (ui::Selectable(label.c_str())) ctx.requests.push(request::RestoreVersion{v.file.string()});
            if (ImGui::IsItemHovered()) ui::SetTooltip(v.file.string());
        }
        ImGui::EndCombo();
    }
    same_line_if_fits(ImGui::CalcTextSize("Undo replace").x + 2 * ImGui::GetStyle().FramePadding.x);
    if (!k.replaced) ImGui::BeginDisabled();
    if (ui::Button("Undo replace")) ctx.requests.push(request::UndoReplace{});
    if (!k.replaced) ImGui::EndDisabled();
    if (k.replaced && ImGui::IsItemHovered()) ui::SetTooltip("Brings back " + k.replaced->what + " (also Ctrl+Z)");
    for (Topic topic : {Topic::KernelFile, Topic::Autosave})
        if (const Message* m = ctx.messages.find(topic))
            wrapped(ctx.messages.failed(topic) || m->severity == Severity::Warning
                        ? kBad
                        : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                    m->text);
}

void file_row(KernelEditorState& k, const PanelContext& ctx) {
    ui::InputText("File", k.path.data(), k.path.size());
    if (ui::Button("Load .cu")) ctx.requests.push(request::LoadKernel{k.path.data()});
    ImGui::SameLine();
    if (ui::Button("Save .cu")) ctx.requests.push(request::SaveKernel{k.path.data()});
}

// A starter's answer (fix_me.cu's), hidden until asked for.
void answer_section(KernelEditorState& k) {
    if (k.answer.empty()) return;
    if (ui::Button(k.show_answer ? "Hide answer##answer" : "Show answer##answer")) k.show_answer = !k.show_answer;
    if (k.show_answer) wrapped(ImVec4(0.85f, 0.85f, 0.5f, 1.0f), k.answer);
}

// The editor's line numbers, right-aligned in [min, max] beside the text box and scrolled with it
// (`scroll_y`: the box's scroll; its text starts FramePadding.y below its top, one line per font
// height). Lines the compile log names are red on a dark red band.
void line_gutter(const ImVec2& min, const ImVec2& max, float scroll_y, int lines, const std::vector<int>& errors) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetTextLineHeight();
    draw->PushClipRect(min, max, true);
    const float top = min.y + style.FramePadding.y - scroll_y;
    const int first = std::max(0, static_cast<int>((scroll_y - style.FramePadding.y) / line_h));
    const int last = std::min(lines, first + static_cast<int>((max.y - min.y) / line_h) + 2);
    for (int i = first; i < last; ++i) {
        const float y = top + float(i) * line_h;
        const std::string number = std::to_string(i + 1);
        const bool error = std::find(errors.begin(), errors.end(), i + 1) != errors.end();
        if (error) draw->AddRectFilled(ImVec2(min.x, y), ImVec2(max.x, y + line_h), IM_COL32(110, 20, 20, 255));
        const float x = max.x - style.ItemInnerSpacing.x - ImGui::CalcTextSize(number.c_str()).x;
        draw->AddText(ImVec2(x, y), error ? ImGui::GetColorU32(kBad) : ImGui::GetColorU32(ImGuiCol_TextDisabled),
                      number.c_str());
    }
    draw->PopClipRect();
}

bool ctrl_pressed(ImGuiKey key) {
    return ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), false);
}

// Before the code box: a text put in by a replacement drops the box's own copy and undo stack; a
// clicked error line or a Ctrl+Enter gives it the keyboard; Ctrl+Z with nothing left for ImGui to
// undo in it (or with no text field active) is Undo replace.
void before_code_box(KernelEditorState& k, const PanelContext& ctx, ImGuiID id) {
    ImGuiInputTextState* state = ImGui::GetInputTextState(id);
    const bool active = ImGui::GetActiveID() == id;
    if (std::exchange(k.text_replaced, false)) {
        if (active) ImGui::ClearActiveID();
        if (state) state->ID = 0; // forgets its text and its undo stack
        return;
    }
    const bool nothing_to_undo = active ? (state && state->GetUndoAvailCount() == 0) : !ImGui::GetIO().WantTextInput;
    if (k.replaced && ctrl_pressed(ImGuiKey_Z) && !ImGui::GetIO().KeyShift && nothing_to_undo)
        ctx.requests.push(request::UndoReplace{});
    if ((k.goto_line > 0 || std::exchange(k.refocus, false)) && !active) ImGui::SetKeyboardFocusHere();
}

// The code box with its line-number gutter on the left.
void code_box(KernelEditorState& k, const PanelContext& ctx, float height) {
    // Ctrl+Enter ends the edit (ImGui returns true for it with EnterReturnsTrue) and compiles; the
    // box takes the keyboard back next frame, its cursor where it was.
    const ImGuiInputTextFlags flags = ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize |
                                      ImGuiInputTextFlags_CallbackAlways | ImGuiInputTextFlags_EnterReturnsTrue;
    const int lines = 1 + static_cast<int>(std::count(k.source.begin(), k.source.end(), '\n'));
    const float gutter_w =
        ImGui::CalcTextSize(std::to_string(std::max(lines, 999)).c_str()).x + 2 * ImGui::GetStyle().ItemInnerSpacing.x;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter_w, origin.y));
    before_code_box(k, ctx, ImGui::GetID("##source"));
    // Escape in an ImGui text field reverts everything typed since it was clicked: keep the code.
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    const std::string before_escape = escape ? k.source : std::string();
    if (ui::InputTextMultiline("##source", k.source.data(), k.source.capacity() + 1, ImVec2(-FLT_MIN, height), flags,
                               &code_box_callback, &k)) {
        ctx.requests.push(request::CompileKernel{});
        k.refocus = true;
    }
    ui::record_last_item("Kernel source", k.source); // no visible label: scripts find the box by this name
    if (escape && k.source != before_escape) k.source = before_escape;
    // The box is a child window ("<window>/##source_<id>", the last this window began, unless the
    // box was clipped away): its scroll moves the numbers.
    const ImVector<ImGuiWindow*>& children = ImGui::GetCurrentWindow()->DC.ChildWindows;
    const bool box_began = !children.empty() && std::strstr(children.back()->Name, "/##source_");
    const float scroll_y = box_began ? children.back()->Scroll.y : 0.0f;
    const ImVec2 box_min = ImGui::GetItemRectMin(), box_max = ImGui::GetItemRectMax();
    line_gutter(ImVec2(origin.x, box_min.y), ImVec2(box_min.x, box_max.y), scroll_y, lines, k.error_lines);
}

// Compile: NVRTC on a CUDA backend, the system's C++ compiler on the cpu backend.
void compile_button(KernelEditorState& k, const PanelContext& ctx) {
    if (ui::Button("Compile")) ctx.requests.push(request::CompileKernel{});
    ImGui::SameLine();
    ui::TextDisabled("(Ctrl+Enter)  %s", k.file_name.c_str());
    if (ctx.painter.has_user_kernel() && k.source != ctx.painter.user_kernel_source()) {
        ImGui::SameLine();
        ui::TextDisabled("- edited since it compiled");
    }
}

// The compile log, a line at a time: a line naming an error in the editor's text is a button that
// puts the editor's cursor on that line and selects it.
void log_lines(KernelEditorState& k) {
    std::string_view log = k.log;
    for (int i = 0; !log.empty(); ++i) {
        const std::size_t nl = log.find('\n');
        const std::string line(log.substr(0, nl));
        log.remove_prefix(nl == std::string_view::npos ? log.size() : nl + 1);
        const std::vector<int> named = error_lines(line, k.file_name);
        if (named.empty()) {
            ui::TextUnformatted(line.c_str());
            continue;
        }
        ImGui::PushID(i);
        if (ui::Selectable(line.c_str())) k.goto_line = named.front();
        if (ImGui::IsItemHovered()) ui::SetTooltip(fmt::format("Click: go to line {} in the editor", named.front()));
        ImGui::PopID();
    }
}

// Checked mode or raw pointers: a change compiles the kernel again in the other mode.
void mode_row(KernelEditorState& k) {
    ui::TextUnformatted("Mode:");
    for (KernelMode m : kKernelModes) {
        ImGui::SameLine();
        if (ui::RadioButton(m == KernelMode::Checked ? "checked" : "raw", k.mode == m) && k.mode != m)
            k.mode = m, k.compile_wanted = true;
    }
    ImGui::SameLine();
    ui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ui::SetTooltip(
            "checked: out, a and b are bounds-checked views (see the prelude): an index past the end writes "
            "nothing, reads poison magenta, and the first such access of a frame is named below with its thread; "
            "the thread views, the inspector and step mode follow your kernel. raw: plain pointers, as your "
            "kernel would run in a program of yours; for timing. An index past the end may stop the GPU.");
}

// The first out-of-range access the checked views caught in the last frame read back, in red,
// with a button that points the inspector at the thread's block.
void out_of_range(UiState& s, const PanelContext& ctx) {
    const OpOutputs& out = ctx.painter.outputs();
    if (s.kernel.ran_mode != KernelMode::Checked || !out.has_violations || out.violations.count == 0) return;
    wrapped(kBad, describe(out.violations));
    const KcViolation& v = out.violations.first;
    // One ID whatever the block: a kernel whose first bad access moves from frame to frame keeps a button.
    if (ui::SmallButton(fmt::format("Inspect block ({},{})###inspect violation", v.block[0], v.block[1]).c_str())) {
        // The block's first thread's pixel, kept inside the canvas: the inspector names the block there.
        const long long x = 1LL * v.block[0] * v.block_dim[0], y = 1LL * v.block[1] * v.block_dim[1];
        s.teach.inspector = true;
        s.teach.pinned_pixel = std::pair{int(std::clamp<long long>(x, 0, out.violations.width - 1)),
                                         int(std::clamp<long long>(y, 0, out.violations.height - 1))};
    }
}

void compile_status(KernelEditorState& k, const PanelContext& ctx) {
    if (!k.last_ok) {
        ui::TextDisabled("not compiled yet");
    } else if (*k.last_ok) {
        ui::TextColored(kGood, "compiled %s for %s in %.0f ms (%s mode)", k.file_name.c_str(), k.target.c_str(),
                        k.compile_ms, to_string(k.ran_mode.value_or(k.mode)));
    } else {
        wrapped(kBad, ctx.painter.has_user_kernel() ? "Compile failed: the last kernel that compiled keeps running."
                                                    : "Compile failed: no kernel of yours runs yet.");
    }
    if (!k.log.empty()) {
        // Line numbers in the log are the editor's: "kernel.cu(7)" is line 7 above.
        ImGui::BeginChild("log", ImVec2(0, ImGui::GetTextLineHeight() * 8), true, ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::PushStyleColor(ImGuiCol_Text, k.last_ok.value_or(false) ? ImVec4(0.85f, 0.85f, 0.5f, 1.0f) : kBad);
        ImGui::PushFont(mono_font());
        log_lines(k);
        ImGui::PopFont();
        ImGui::PopStyleColor();
        ImGui::EndChild();
    }
}

// The code, Compile, and what the last compile said. `height` as ImGui sizes go (negative: fill
// the window but leave that much).
void editor(UiState& s, const PanelContext& ctx, float height) {
    KernelEditorState& k = s.kernel;
    ImGui::PushFont(mono_font()); // code in a monospaced font
    code_box(k, ctx, height);
    ImGui::PopFont();
    compile_button(k, ctx);
    mode_row(k);
    compile_status(k, ctx);
    out_of_range(s, ctx);
}

} // namespace

void kernel_section(UiState& s, const PanelContext& ctx) {
    KernelEditorState& k = s.kernel;
    if (ctx.painter.backend() == Backend::Cpu)
        wrapped(ImVec4(1.0f, 0.8f, 0.4f, 1.0f),
                "CPU backend: your kernel is compiled by the system's C++ compiler and runs in a sandbox where it "
                "may only compute (no files, processes or network); a frame past its time limit is stopped.");
    ui::TextWrapped("Write the whole kernel: extern \"C\" __global__ void paint(Pixel* out, int width, int height, "
                    "const Pixel* a, const Pixel* b, float t), in which your threads find their pixel from "
                    "blockIdx, blockDim and threadIdx and check the bounds. The Launch section's block and grid "
                    "launch it; pixels no thread writes stay hatched. In checked mode (the default) out, a and b "
                    "are bounds-checked and the views show which thread wrote each pixel.");
    file_row(k, ctx);
    answer_section(k);

    // The panel is narrow for code: the editor goes beside the canvas where the window has room.
    ui::Checkbox("Editor beside the canvas", &k.beside_canvas);
    if (editor_area(s)) {
        ui::TextDisabled("The editor is beside the canvas.");
    } else {
        if (k.beside_canvas) ui::TextDisabled("(the window is too narrow: the editor stays here)");
        editor_menus(k, ctx);
        editor(s, ctx, ImGui::GetTextLineHeight() * 22);
    }

    if (ui::TreeNode("Prelude (compiled before your code, read-only)")) {
        const std::string prelude = user_kernel_prelude(k.mode);
        ImGui::BeginChild("prelude", ImVec2(0, ImGui::GetTextLineHeight() * 14), true,
                          ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::PushFont(mono_font());
        ui::TextUnformatted(prelude.data(), prelude.data() + prelude.size());
        ImGui::PopFont();
        ImGui::EndChild();
        ImGui::TreePop();
    }
    ImGui::PushTextWrapPos(0.0f);
    ui::TextDisabled("A kernel that faults, or one that never ends (no frame for --watchdog seconds), closes "
                     "kcanvas, saving your source first.");
    ImGui::PopTextWrapPos();
}

void kernel_editor_window(UiState& s, const PanelContext& ctx) {
    const auto area = editor_area(s);
    if (!area) return;
    ImGui::SetNextWindowPos(ImVec2(float(area->x), float(area->y)), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(float(area->w), float(area->h)), ImGuiCond_Always);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("Your kernel##editor window", nullptr, flags);
    ImGui::PushTextWrapPos(0.0f);
    editor_menus(s.kernel, ctx);
    // The code fills the window above Compile, its status and the log (8 lines, when there is one).
    const float line = ImGui::GetFrameHeightWithSpacing();
    const bool named = ctx.painter.outputs().has_violations && ctx.painter.outputs().violations.count > 0;
    const float below = line * 3.5f + (s.kernel.log.empty() ? 0.0f : ImGui::GetTextLineHeight() * 8 + line) +
                        (named ? ImGui::GetTextLineHeight() * 3 + line : 0.0f);
    editor(s, ctx, -below);
    ImGui::PopTextWrapPos();
    ImGui::End();
}

void replace_kernel_dialog(UiState& s, const PanelContext& ctx) {
    const char* title = "Replace the kernel?";
    KernelEditorState& k = s.kernel;
    if (k.pending) ImGui::OpenPopup(title);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 43.0f, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    if (!k.pending) { // Cancel, Esc, or done
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    const std::string target = kernel_save_target(k.origin_path, k.fallback_path);
    ui::TextWrapped("The editor holds %s. Loading %s replaces it.",
                    k.unsaved() ? "changes that are not saved"
                                : "your last session's kernel, kept only in the autosave",
                    k.pending->what.c_str());
    ui::TextWrapped("Save writes it to %s first. Discard replaces it now: a copy stays under Earlier versions, and "
                    "Undo replace (Ctrl+Z) brings it back.",
                    target.c_str());
    if (ctx.messages.failed(Topic::KernelFile)) wrapped(kBad, ctx.messages.text(Topic::KernelFile));
    if (ui::Button("Save##replace"))
        ctx.requests.push(request::SaveKernel{target, /*then_quit=*/false, /*then_replace=*/true});
    ImGui::SameLine();
    if (ui::Button("Discard##replace")) ctx.requests.push(request::ReplaceKernel{*k.pending, /*confirmed=*/true});
    ImGui::SameLine();
    if (ui::Button("Cancel##replace")) k.pending.reset();
    ImGui::EndPopup();
}

void unsaved_kernel_dialog(UiState& s, const PanelContext& ctx) {
    const char* title = "Unsaved kernel";
    if (s.unsaved_dialog) ImGui::OpenPopup(title);
    ImGui::SetNextWindowSize(ImVec2(520, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    if (!s.unsaved_dialog) { // Cancel, or Esc (the frame loop's key events)
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    KernelEditorState& k = s.kernel;
    // Never over a starter in kcanvas's installed data folder: a copy in the user's folder instead.
    const std::string target = kernel_save_target(k.path.data(), k.fallback_path);
    ui::TextWrapped("The kernel editor has changes that are not saved. Save them to %s before quitting?",
                    target.c_str());
    if (ctx.messages.failed(Topic::KernelFile)) wrapped(kBad, ctx.messages.text(Topic::KernelFile));
    if (ui::Button("Save")) ctx.requests.push(request::SaveKernel{target, /*then_quit=*/true});
    ImGui::SameLine();
    if (ui::Button("Discard")) ctx.requests.push(request::Quit{/*ask_first=*/false});
    ImGui::SameLine();
    if (ui::Button("Cancel")) s.unsaved_dialog = false;
    ImGui::EndPopup();
}

void kernel_fault_dialog(UiState&, const PanelContext& ctx) {
    const std::string& fault = ctx.messages.text(Topic::Fault);
    if (fault.empty()) return;
    ImGui::OpenPopup("The GPU stopped");
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 43.0f, 0), ImGuiCond_Appearing); // 560 at 100 %
    if (ImGui::BeginPopupModal("The GPU stopped", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        wrapped(kBad, fault);
        if (ui::Button("Quit kcanvas")) ctx.requests.push(request::Quit{/*ask_first=*/false});
        ImGui::EndPopup();
    }
}

} // namespace kc
