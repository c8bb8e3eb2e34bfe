#include "panel.h"

#include <imgui.h>

#include <algorithm>
#include <fmt/format.h>

#include "registry.h"
#include "teach_panel.h"

namespace kc {

namespace {

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void operation_section(UiState& s) {
    const auto ops = op_registry();
    if (ImGui::BeginCombo("Operation", std::string(ops[s.job.op].title).c_str())) {
        for (const OpInfo& op : ops)
            if (ImGui::Selectable(std::string(op.title).c_str(), op.index == s.job.op)) s.job.op = op.index;
        ImGui::EndCombo();
    }
    ImGui::TextWrapped("%s", std::string(ops[s.job.op].formula).c_str());
    ImGui::SliderFloat("Blend weight", &s.job.params.weight, 0.0f, 1.0f, "%.3f");
    help_marker("blend = round(w*A + (1-w)*B). The tutorial's 3/4 - 1/4 merge is 0.75.");
    ImGui::SliderInt("Cell size", &s.job.params.cell, 1, 400);
    s.job.params.cell = std::max(1, s.job.params.cell);
}

void canvas_section(UiState& s) {
    ImGui::Text("Canvas %d x %d", s.job.params.width, s.job.params.height);
    ImGui::InputInt("Width", &s.edit_width, 0, 0);
    ImGui::InputInt("Height", &s.edit_height, 0, 0);
    if (ImGui::Button("Apply size")) s.apply_size = true;
    for (auto [w, h] : {std::pair{800, 800}, {1920, 1080}, {3840, 2160}}) {
        ImGui::SameLine();
        if (ImGui::Button(fmt::format("{}x{}", w, h).c_str())) s.edit_width = w, s.edit_height = h, s.apply_size = true;
    }
}

void launch_section(UiState& s) {
    LaunchConfig& l = s.job.launch;
    ImGui::InputInt2("Block x, y", &l.block.x);
    ImGui::Text("%lld threads per block", l.block.count());
    ImGui::Checkbox("Auto grid", &l.auto_grid);
    help_marker("Auto rounds the grid up so that the blocks cover the whole canvas. Untick it to type a grid "
                "and see what a too-small grid leaves uncovered (hatched in purple).");
    if (l.auto_grid) {
        l.grid = resolved_grid(l, s.job.params.width, s.job.params.height);
        ImGui::BeginDisabled();
    }
    ImGui::InputInt2("Grid x, y", &l.grid.x);
    if (l.auto_grid) ImGui::EndDisabled();

    if (ImGui::BeginCombo("Mapping", std::string(mapping_name(l.mapping)).c_str())) {
        for (Mapping m : {Mapping::TwoD, Mapping::Linear, Mapping::GridStride})
            if (ImGui::Selectable(std::string(mapping_name(m)).c_str(), m == l.mapping)) l.mapping = m;
        ImGui::EndCombo();
    }
    if (ImGui::BeginCombo("View", std::string(view_name(s.job.view)).c_str())) {
        for (View v : all_views())
            if (ImGui::Selectable(std::string(view_name(v)).c_str(), v == s.job.view)) s.job.view = v;
        ImGui::EndCombo();
    }
    if (ImGui::Button("Tutorial: block 50x20, grid 80x8, linear")) l = tutorial_preset();
    if (ImGui::Button("Default: block 32x8, auto grid, 2d")) l = LaunchConfig{};

    const Coverage c = coverage(l, s.job.params.width, s.job.params.height);
    ImGui::Text("%lld threads for %lld pixels", c.threads, c.pixels);
    if (!c.covers_all())
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%lld pixels uncovered", c.pixels - c.covered_pixels);
    if (c.repeated_writes > 0)
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%lld repeated writes (z layers)", c.repeated_writes);
}

void timing_line(const char* name, const TimingStats& t) {
    if (t.empty()) return;
    ImGui::Text("%-7s %8.1f %8.1f %8.1f", name, t.last(), t.mean(), t.min());
}

void timing_section(UiState& s, const PanelContext& ctx) {
    const StageTimes& t = ctx.painter.times();
    const OpInfo& op = op_registry()[s.job.op];
    const double bytes =
        double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * s.job.params.width * s.job.params.height;
    ImGui::Text("%-7s %8s %8s %8s  (us)", "", "last", "mean", "min");
    timing_line("kernel", t.kernel);
    timing_line("map", t.map);
    timing_line("unmap", t.unmap);
    timing_line("copy", t.copy);
    timing_line("upload", t.upload);
    if (!t.kernel.empty()) {
        ImGui::Text("Bandwidth %.1f GB/s (mean kernel time)", bytes / (t.kernel.mean() * 1e3));
        const auto history = t.kernel.history();
        const float top = *std::max_element(history.begin(), history.end()) * 1.15f;
        ImGui::PlotLines("##kernel", history.data(), static_cast<int>(history.size()), 0, "kernel time (us), 0 at the bottom",
                         0.0f, top, ImVec2(-1, 60));
    }
    ImGui::Text("Frame %.2f ms (%.0f fps)", ctx.frame_ms, ctx.frame_ms > 0 ? 1000.0 / ctx.frame_ms : 0.0);
    ImGui::Checkbox("VSync", &s.vsync);
    help_marker("Turn vsync off while measuring: with it on, frames wait for the display.");
}

void backend_section(UiState& s, const PanelContext& ctx) {
    const FramePainter& p = ctx.painter;
    ImGui::Text("Device: %s", p.device().name.c_str());
    if (ImGui::BeginCombo("Backend", std::string(backend_name(s.requested_backend)).c_str())) {
        for (Backend b : kAllBackends) {
            const std::string& why = p.unavailable_reason(b);
            if (!why.empty()) ImGui::BeginDisabled();
            if (ImGui::Selectable(std::string(backend_name(b)).c_str(), b == s.requested_backend)) s.requested_backend = b;
            if (!why.empty()) ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    if (p.backend() == Backend::CudaInterop) {
        int present = static_cast<int>(p.present());
        for (Present option : kAllPresents) {
            ImGui::RadioButton(std::string(present_name(option)).c_str(), &present, static_cast<int>(option));
            ImGui::SameLine();
        }
        help_marker("How the kernel's pixels reach the texture. pbo: the kernel writes a GL pixel buffer that "
                    "glTexSubImage2D uploads. texture: cudaMemcpy2DToArray copies CUDA memory into the GL texture. "
                    "surface: a kernel writes the GL texture through a surface object. Compare their times below.");
        s.requested_present = static_cast<Present>(present);
    }
    for (Backend b : kAllBackends)
        if (!p.unavailable_reason(b).empty())
        {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("%s unavailable: %s", std::string(backend_name(b)).c_str(), p.unavailable_reason(b).c_str());
            ImGui::PopStyleColor();
        }
}

} // namespace

float draw_panel(UiState& s, const PanelContext& ctx) {
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(390, ImGui::GetIO().DisplaySize.y), ImGuiCond_FirstUseEver);
    ImGui::Begin("Kernel Canvas");
    backend_section(s, ctx);
    if (ImGui::CollapsingHeader("Operation", ImGuiTreeNodeFlags_DefaultOpen)) operation_section(s);
    if (ImGui::CollapsingHeader("Launch", ImGuiTreeNodeFlags_DefaultOpen)) launch_section(s);
    if (s.refusal) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "Launch refused: %s", s.refusal->c_str());
        ImGui::TextDisabled("The previous picture stays until the launch is legal.");
        ImGui::PopTextWrapPos();
    }
    if (!s.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "Error: %s", s.error.c_str());
        ImGui::PopTextWrapPos();
    }
    teaching_sections(s, ctx); // "Indexing" and "Device" (teach_panel.cpp)
    if (ImGui::CollapsingHeader("Timing", ImGuiTreeNodeFlags_DefaultOpen)) timing_section(s, ctx);
    if (ImGui::CollapsingHeader("Canvas")) canvas_section(s);
    if (!s.message.empty()) ImGui::TextWrapped("%s", s.message.c_str());
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ImGui::End();
    return pos.x < 8.0f ? pos.x + size.x : 0.0f;
}

} // namespace kc
