#include "app/ui/panels/ab_panel.h"

#include <imgui.h>

#include <fmt/format.h>

#include <string>

#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"

namespace kc {

namespace {

// Side B starts as a copy of A: the comparison begins at "identical" and one change away.
void copy_a_to_b(UiState& s) {
    AbSplit& split = s.ab.split;
    split.b = s.job;
    s.ab.b_chosen = true;
    if (op_registry()[s.job.op].user_code) split.b_kernel_source = s.kernel.source, split.b_kernel_mode = s.kernel.mode;
}

void layout_and_diff(UiState& s) {
    AbSplit& split = s.ab.split;
    int layout = static_cast<int>(split.layout);
    ui::RadioButton("Divider", &layout, static_cast<int>(AbLayout::Divider));
    same_line_if_fits(radio_width("Side by side"));
    ui::RadioButton("Side by side", &layout, static_cast<int>(AbLayout::SideBySide));
    split.layout = static_cast<AbLayout>(layout);
    if (split.layout == AbLayout::Divider)
        wrapped_disabled("A is left of the divider, B right of it: drag the divider over the canvas.");
    ui::Checkbox("Mark differing pixels", &split.diff);
}

// Each side's time, the ratio, the diff: what the comparison is for.
void readout(const UiState& s) {
    const AbReadout& r = s.ab.readout;
    if (r.emulator) wrapped_text(kWarnColour, "CPU backend: times from the CPU emulator's wall clock, not a GPU's.");
    wrapped("A: " + side_time_text(r.a));
    ui::record_text("A: " + side_time_text(r.a));
    wrapped("B: " + side_time_text(r.b));
    ui::record_text("B: " + side_time_text(r.b));
    wrapped(ratio_text(r.ratio));
    ui::record_text(ratio_text(r.ratio));
    if (s.ab.split.diff) {
        const std::string text = "Pixels: " + diff_text(r.diff);
        wrapped_text(r.diff.differing > 0 ? kWarnColour : ImGui::GetStyleColorVec4(ImGuiCol_Text), text);
        ui::record_text(text);
        if (r.diff.differing > 0) wrapped_disabled("Differing pixels are marked magenta on the canvas.");
    }
    if (!r.b_refusal.empty()) wrapped_text(kErrorColour, "B's launch refused: " + r.b_refusal);
    if (!r.b_compile.empty()) wrapped_text(kErrorColour, "B's kernel does not compile:\n" + r.b_compile);
}

void b_operation(PaintJob& b) {
    const auto ops = op_registry();
    if (ui::BeginCombo("B operation", std::string(ops[b.op].title).c_str())) {
        for (const OpInfo& op : ops)
            if (ui::Selectable((std::string(op.title) + "##b").c_str(), op.index == b.op)) {
                b.op = op.index;
                if (variant_error(op, b.params.variant)) b.params.variant = 0;
            }
        ImGui::EndCombo();
    }
    const OpInfo& op = ops[b.op];
    if (op.variants <= 1) return;
    if (ui::BeginCombo("B variant", std::string(op.variant_names[b.params.variant]).c_str())) {
        for (int v = 0; v < op.variants; ++v)
            if (ui::Selectable((std::string(op.variant_names[v]) + "##b").c_str(), v == b.params.variant))
                b.params.variant = v;
        ImGui::EndCombo();
    }
}

void b_launch(UiState& s) {
    LaunchConfig& l = s.ab.split.b.launch;
    const OpInfo& op = op_registry()[s.ab.split.b.op];
    if (op.custom) {
        wrapped_disabled(fmt::format("B's op launches its own kernels: block {}, grid {}.",
                                     to_string(s.ab.b_resolved.launch.block), to_string(s.ab.b_resolved.grid)));
        return;
    }
    ui::InputIntOnCommit("B block x", &l.block.x);
    ui::InputIntOnCommit("B block y", &l.block.y);
    ui::Checkbox("B auto grid", &l.auto_grid);
    if (l.auto_grid) {
        l.grid = s.ab.b_resolved.grid;
        ImGui::BeginDisabled();
    }
    ui::InputIntOnCommit("B grid x", &l.grid.x);
    ui::InputIntOnCommit("B grid y", &l.grid.y);
    if (l.auto_grid) ImGui::EndDisabled();
    if (op.user_code) return; // the user's kernel maps its own threads to pixels
    if (ui::BeginCombo("B mapping", std::string(mapping_name(l.mapping)).c_str())) {
        for (Mapping m : kAllMappings)
            if (ui::Selectable((std::string(mapping_name(m)) + "##b").c_str(), m == l.mapping)) l.mapping = m;
        ImGui::EndCombo();
    }
    ui::TextUnformatted("B pixels per thread");
    ImGui::SameLine();
    ui::RadioButton("1##abppt", &l.pixels_per_thread, 1);
    ImGui::SameLine();
    ui::RadioButton("4##abppt", &l.pixels_per_thread, 4);
}

// The name the B kernel combo shows: the starter whose text B runs, else where the text came from.
std::string b_kernel_name(const AbSplit& split) {
    const std::string_view text = split.b_kernel_source.empty() ? default_starter().source : split.b_kernel_source;
    for (const StarterKernel& k : starter_kernels())
        if (k.source == text) return "starter " + std::string(k.name);
    return "a copy of your kernel";
}

void b_kernel(UiState& s) {
    AbSplit& split = s.ab.split;
    if (!op_registry()[split.b.op].user_code) return;
    if (ui::BeginCombo("B kernel", b_kernel_name(split).c_str())) {
        if (ui::Selectable("your kernel, as the editor holds it now"))
            split.b_kernel_source = s.kernel.source, split.b_kernel_mode = s.kernel.mode;
        for (const StarterKernel& k : starter_kernels())
            if (ui::Selectable(("starter " + std::string(k.name) + "##b").c_str()))
                split.b_kernel_source = std::string(k.source);
        ImGui::EndCombo();
    }
    int mode = static_cast<int>(split.b_kernel_mode);
    ui::RadioButton("checked##abmode", &mode, static_cast<int>(KernelMode::Checked));
    ImGui::SameLine();
    ui::RadioButton("raw##abmode", &mode, static_cast<int>(KernelMode::Raw));
    split.b_kernel_mode = static_cast<KernelMode>(mode);
}

} // namespace

void ab_section(UiState& s, const PanelContext&) {
    if (ui::Checkbox("Split the canvas: A | B", &s.ab.on) && s.ab.on && !s.ab.b_chosen)
        copy_a_to_b(s); // the first time: B starts as A
    if (!s.ab.on) {
        wrapped_disabled("Compare two launches on one canvas: side A is the panel's launch, side B is set here. "
                         "Each is timed, with the ratio B/A and the pixels that differ.");
        return;
    }
    layout_and_diff(s);
    readout(s);
    ImGui::Separator();
    ui::TextUnformatted("Side B");
    if (ui::Button("B = A")) copy_a_to_b(s);
    b_operation(s.ab.split.b);
    if (const std::string own = differing_params(s.job, side_b_job(s.ab.split, s.job)); !own.empty())
        wrapped_disabled(fmt::format("B's own parameters (from its preset): {}", own));
    b_launch(s);
    b_kernel(s);
}

} // namespace kc
