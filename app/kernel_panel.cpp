#include "kernel_panel.h"

#include <imgui.h>

#include <cfloat>
#include <string>

#include "user_kernel.h"
#include "widgets.h"

namespace kc {

namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(1.0f, 0.35f, 0.35f, 1.0f);

// Lets ImGui grow the std::string it edits (ImGuiInputTextFlags_CallbackResize).
int grow_string(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}

void wrapped(const ImVec4& colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

void starters_and_files(KernelEditorState& k) {
    if (ui::BeginCombo("Starter", "load a starter kernel...")) {
        for (const StarterKernel& starter : starter_kernels())
            if (ui::Selectable(std::string(starter.title).c_str())) {
                k.source = std::string(starter.source);
                k.file_name = std::string(starter.name) + ".cu";
                k.compile_request = true;
                k.file_message = "loaded the starter " + k.file_name + " (from assets/kernels)";
            }
        ImGui::EndCombo();
    }
    ui::InputText("File", k.path.data(), k.path.size());
    if (ui::Button("Load .cu")) k.load_request = std::string(k.path.data());
    ImGui::SameLine();
    if (ui::Button("Save .cu")) k.save_request = std::string(k.path.data());
    if (!k.file_message.empty()) ImGui::TextDisabled("%s", k.file_message.c_str());
}

void compile_status(const KernelEditorState& k, const PanelContext& ctx) {
    if (!k.last_ok) {
        ImGui::TextDisabled("not compiled yet");
    } else if (*k.last_ok) {
        ImGui::TextColored(kGood, "compiled %s for %s in %.0f ms", k.file_name.c_str(), k.target.c_str(), k.compile_ms);
    } else {
        wrapped(kBad, ctx.painter.has_user_kernel() ? "Compile failed: the last kernel that compiled keeps running."
                                                    : "Compile failed: no kernel of yours runs yet.");
    }
    if (!k.log.empty()) {
        // Line numbers in the log are the editor's: "kernel.cu(7)" is line 7 above.
        ImGui::BeginChild("log", ImVec2(0, ImGui::GetTextLineHeight() * 8), true, ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::PushStyleColor(ImGuiCol_Text, k.last_ok.value_or(false) ? ImVec4(0.85f, 0.85f, 0.5f, 1.0f) : kBad);
        ImGui::TextUnformatted(k.log.c_str());
        ImGui::PopStyleColor();
        ImGui::EndChild();
    }
}

// The code, Compile, and what the last compile said. `height` as ImGui sizes go (negative: fill
// the window but leave that much).
void editor(KernelEditorState& k, const PanelContext& ctx, float height) {
    // Ctrl+Enter ends the edit (ImGui returns true for it with EnterReturnsTrue) and compiles.
    const ImGuiInputTextFlags flags =
        ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_EnterReturnsTrue;
    // Escape in an ImGui text field reverts everything typed since it was clicked: keep the code.
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    const std::string before_escape = escape ? k.source : std::string();
    if (ui::InputTextMultiline("##source", k.source.data(), k.source.capacity() + 1,
                                  ImVec2(-FLT_MIN, height), flags, &grow_string, &k.source))
        k.compile_request = true;
    if (escape && k.source != before_escape) k.source = before_escape;
    if (ui::Button("Compile")) k.compile_request = true;
    ImGui::SameLine();
    ImGui::TextDisabled("(Ctrl+Enter)  %s", k.file_name.c_str());
    if (ctx.painter.has_user_kernel() && k.source != ctx.painter.user_kernel_source()) {
        ImGui::SameLine();
        ImGui::TextDisabled("- edited since it compiled");
    }
    compile_status(k, ctx);
}

} // namespace

void kernel_section(UiState& s, const PanelContext& ctx) {
    KernelEditorState& k = s.kernel;
    if (ctx.painter.backend() == Backend::Cpu)
        wrapped(ImVec4(1.0f, 0.8f, 0.4f, 1.0f),
                "Your kernel runs on a CUDA backend only: the CPU grid emulator cannot run CUDA code.");
    ImGui::TextWrapped("Write the body of paint(); your threads find their pixel from blockIdx, blockDim and "
                       "threadIdx and check the bounds. The Launch section's block and grid launch it; pixels "
                       "no thread writes stay hatched.");
    starters_and_files(k);

    // The panel is narrow for code: the editor can move to a window of its own.
    ui::Checkbox("Edit in a larger window", &k.own_window);
    if (k.own_window) {
        const float right_of_panel = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
        ImGui::SetNextWindowPos(ImVec2(right_of_panel + 16, 16), ImGuiCond_FirstUseEver); // over the canvas
        ImGui::SetNextWindowSize(ImVec2(760, 620), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowBgAlpha(1.0f); // code over a picture must stay readable
        if (ImGui::Begin("Your kernel", &k.own_window)) editor(k, ctx, -ImGui::GetTextLineHeight() * 12);
        ImGui::End();
    } else {
        editor(k, ctx, ImGui::GetTextLineHeight() * 22);
    }

    if (ui::TreeNode("Prelude (compiled before your code, read-only)")) {
        const std::string_view prelude = user_kernel_prelude();
        ImGui::BeginChild("prelude", ImVec2(0, ImGui::GetTextLineHeight() * 14), true,
                          ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::TextUnformatted(prelude.data(), prelude.data() + prelude.size());
        ImGui::EndChild();
        ImGui::TreePop();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("A kernel that faults, or one that never ends (no frame for --watchdog seconds), closes "
                        "kcanvas, saving your source first.");
    ImGui::PopTextWrapPos();
}

void kernel_fault_dialog(UiState& s) {
    if (s.fatal.empty()) return;
    ImGui::OpenPopup("The GPU stopped");
    ImGui::SetNextWindowSize(ImVec2(560, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("The GPU stopped", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        wrapped(kBad, s.fatal);
        if (ui::Button("Quit kcanvas")) s.quit = true;
        ImGui::EndPopup();
    }
}

} // namespace kc
