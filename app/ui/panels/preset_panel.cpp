#include "app/ui/panels/preset_panel.h"

#include <imgui.h>

#include <fmt/format.h>

#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

Preset preset_of(const UiState& s) {
    Preset p;
    p.job = s.job;
    p.job.max_blocks = -1;
    for (int slot = 0; slot < 2; ++slot)
        if (s.sources.loaded(slot)) p.images[slot] = s.sources.path(slot);
    if (op_registry()[s.job.op].user_code) p.kernel_source = s.kernel.source, p.kernel_mode = s.kernel.mode;
    p.block_outlines = s.teach.block_outlines;
    p.inspect = s.teach.pinned_pixel;
    if (!s.view.fitted()) p.canvas_zoom = s.view.zoom();
    if (s.ab.on) {
        p.ab = s.ab.split;
        p.ab->b = side_b_job(s.ab.split, p.job);
    }
    return p;
}

void apply_preset(const Preset& p, UiState& s, Requests& requests) {
    const OpParams old = s.job.params;
    s.job = p.job;
    s.job.params.width = old.width, s.job.params.height = old.height; // the canvas resizes between frames
    s.job.params.src_a = old.src_a, s.job.params.src_b = old.src_b;
    s.edit_width = p.job.params.width, s.edit_height = p.job.params.height;
    requests.push(request::ResizeCanvas{s.edit_width, s.edit_height});
    for (int slot = 0; slot < 2; ++slot) {
        if (!p.images[slot].empty())
            requests.push(request::LoadImage{slot, p.images[slot]});
        else if (s.sources.loaded(slot))
            requests.push(request::ClearImage{slot});
    }
    if (!p.kernel_source.empty()) // asks first when the editor's text is in no file (kernel_panel.h)
        requests.push(request::ReplaceKernel{{p.kernel_source, "", "preset.cu", "the preset's kernel", true, ""}});
    if (op_registry()[p.job.op].user_code && s.kernel.mode != p.kernel_mode)
        s.kernel.mode = p.kernel_mode, s.kernel.compile_wanted = true;
    s.teach.block_outlines = p.block_outlines;
    s.teach.pinned_pixel = p.inspect;
    requests.push(request::SetZoom{p.canvas_zoom.value_or(0.0)});
    s.ab.on = p.ab.has_value(); // a preset without a split shows one picture
    if (p.ab) s.ab.split = *p.ab, s.ab.b_chosen = true;
}

namespace {

void save_preset_file(UiState& s, Messages& messages, const std::string& path) {
    const auto e =
        path.empty() ? std::optional<std::string>("type a file name first") : save_preset(path, preset_of(s));
    if (e)
        messages.error(Topic::Preset, "preset not saved: " + *e);
    else
        messages.info(Topic::Preset, "saved preset " + path);
}

void load_preset_file(UiState& s, const PanelContext& ctx, const std::string& path) {
    Preset p;
    std::vector<std::string> warnings;
    if (auto e = load_preset(path, p, warnings)) {
        ctx.messages.error(Topic::Preset, "preset not loaded (the picture stays): " + *e);
        return;
    }
    apply_preset(p, s, ctx.requests);
    std::string said = "loaded preset " + path;
    for (const std::string& w : warnings) said += "\nwarning: " + w;
    ctx.messages.post(Topic::Preset, warnings.empty() ? Severity::Info : Severity::Warning, said);
}

} // namespace

void preset_section(UiState& s, const PanelContext& ctx) {
    PresetPanelState& ps = s.preset;
    ui::InputText("Preset file", ps.path.data(), ps.path.size());
    const std::string path(ps.path.data());
    if (ui::Button("Save preset")) save_preset_file(s, ctx.messages, path);
    same_line_if_fits(button_width("Load preset"));
    if (ui::Button("Load preset")) load_preset_file(s, ctx, path);
    if (const std::string& said = ctx.messages.text(Topic::Preset); !said.empty()) {
        if (ctx.messages.failed(Topic::Preset))
            wrapped_text(kErrorColour, said);
        else
            wrapped_disabled(said);
    }
    if (ui::Button("Copy command line")) {
        ps.command = command_line(preset_of(s));
        ImGui::SetClipboardText(ps.command.c_str()); // GLFW's clipboard, through ImGui's backend
    }
    if (!ps.command.empty()) {
        wrapped(ps.command);
        ui::record_last_item("Command line", ps.command);
        wrapped_disabled("On the clipboard: it paints this picture (add --headless --out FILE.png for a file).");
    }
}

} // namespace kc
