#include "app/ui/panel.h"

#include "app/core/block_sweep.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "app/ui/panel_text.h"
#include "app/ui/panels/ab_panel.h"
#include "app/ui/panels/exercise_panel.h"
#include "app/ui/panels/image_panel.h"
#include "app/ui/panels/kernel_panel.h"
#include "app/ui/panels/lesson_panel.h"
#include "app/ui/panels/preset_panel.h"
#include "app/ui/panels/record_panel.h"
#include "app/ui/panels/teach_panel.h"
#include "app/ui/panels/timeline_panel.h"
#include "app/ui/panels/tune_panel.h"
#include "app/ui/ui_scale.h"
#include "app/ui/widgets.h"
#include "app/ui/window_layout.h"
#include "gpu/ops/roofline.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "render/io/image_io.h"

namespace kc {

namespace {

void help_marker(const char* text) {
    ImGui::SameLine();
    ui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// The Julia set is centred on 0, the Mandelbrot set on -0.5 (as --op gives them): a switch
// between the two recentres the view instead of showing one off-centre in the other's place.
void select_op(PaintJob& job, const OpInfo& op) {
    const bool was_julia = uses_param(op_registry()[job.op], "julia-re"), is_julia = uses_param(op, "julia-re");
    if (uses_param(op, "zoom") && was_julia != is_julia) {
        job.params.center_x = is_julia ? 0.0 : -0.5;
        job.params.center_y = 0.0;
    }
    job.op = op.index;
}

// One parameter's control, as the table describes it: a checkbox, or a slider (logarithmic where
// the table says, snapped to its multiple). A value param_error refuses (a typed NaN, a number
// out of range) leaves the old one.
void param_control(const ParamSpec& spec, OpParams& p) {
    const std::string label(spec.label);
    double v = param_value(spec, p);
    bool changed = false;
    const ImGuiSliderFlags flags = spec.log_slider ? ImGuiSliderFlags_Logarithmic : 0;
    if (spec.kind == ParamKind::Bool) {
        bool on = v != 0;
        changed = ui::Checkbox(label.c_str(), &on), v = on;
    } else if (spec.whole()) {
        int i = static_cast<int>(v);
        changed = ui::SliderInt(label.c_str(), &i, int(spec.slider_min()), int(spec.slider_max()), "%d", flags);
        v = i / spec.multiple_of * spec.multiple_of; // the slider's steps between multiples
    } else {
        float f = static_cast<float>(v);
        changed = ui::SliderFloat(label.c_str(), &f, float(spec.slider_min()), float(spec.slider_max()), "%.4f", flags);
        v = f;
    }
    if (changed) set_param(p, spec.name, v);
    if (!spec.help.empty()) help_marker(std::string(spec.help).c_str());
}

// The op's parameters that have a control of their own, in the table's order.
void param_controls(const OpInfo& op, OpParams& p) {
    for (const ParamSpec& spec : kParams)
        if (spec.widget == ParamWidget::Control && uses_param(op, spec.name)) param_control(spec, p);
}

// The fractals' centre and zoom, set with the mouse: shown, and reset.
void fractal_view(const OpInfo& op, OpParams& p) {
    wrapped(fmt::format("Centre {:.10g}, {:.10g}  zoom {:.3g}", p.center_x, p.center_y, *get_param(p, "zoom")));
    wrapped_disabled("Drag on the canvas to pan, mouse wheel to zoom; Ctrl+wheel zooms the view instead.");
    if (ui::Button("Reset view")) {
        p.center_x = uses_param(op, "julia-re") ? 0.0 : -0.5, p.center_y = 0.0;
        p.scale = 3.0 / std::max(1, std::min(p.width, p.height));
    }
}

void operation_section(UiState& s, const PanelContext& ctx) {
    const auto ops = op_registry();
    if (ui::BeginCombo("Operation", std::string(ops[s.job.op].title).c_str())) {
        for (const OpInfo& op : ops)
            if (ui::Selectable(std::string(op.title).c_str(), op.index == s.job.op)) {
                select_op(s.job, op);
                start_image_op_on_photo(s, ctx.requests);
            }
        ImGui::EndCombo();
    }
    const OpInfo& op = ops[s.job.op];
    OpParams& p = s.job.params;
    code_lines(op.formula);
    const bool cpu = ctx.painter.backend() == Backend::Cpu;
    if (op.custom) {
        if (!cpu)
            wrapped_disabled(fmt::format("Its own kernels launch block {}, grid {} (see Launch), not the panel's.",
                                         to_string(s.resolved.launch.block), to_string(s.resolved.grid)));
        else
            wrapped_text(kWarnColour,
                         "CPU backend: a plain C++ implementation, not the grid emulator (shared memory and "
                         "barriers are not emulated); every variant runs the same code.");
    }
    if (op.variants > 1) {
        // An op of fewer kernels than the last one's (matmul's registers, then box_blur): its last.
        p.variant = std::min(p.variant, op.variants - 1);
        for (int v = 0; v < op.variants; ++v) {
            if (v) same_line_if_fits(radio_width(op.variant_names[v]));
            ui::RadioButton(std::string(op.variant_names[v]).c_str(), &p.variant, v);
        }
        // One implementation serves every variant on the cpu backend: nothing to time side by side.
        if (cpu) ImGui::BeginDisabled();
        ui::Checkbox("Run all variants each frame", &s.both_variants);
        if (cpu) ImGui::EndDisabled();
        help_marker(cpu ? "The cpu backend has one C++ implementation for every variant: only CUDA runs the kernels "
                          "to compare."
                        : "The other variants run first, timed; the selected one paints the canvas.");
    }
    param_controls(op, p);
    if (uses_param(op, "zoom")) fractal_view(op, p);
    if (uses_param(op, "matmul-n"))
        wrapped_disabled("A, B: fixed pseudo-random values in [-1, 1]; C = A*B as blue-white-red.");
    if ((op.inputs & (kUsesImageA | kUsesImageB)) && !s.sources.loaded(0))
        wrapped_disabled("No image loaded: A is the gradient, B the checkerboard.");
}

// One input image: its path field (Enter loads), Load / Clear, what it holds, and its own error.
void image_slot(UiState& s, const PanelContext& ctx, int slot) {
    const char name = slot == 0 ? 'A' : 'B';
    const std::string field = fmt::format("Image {}", name), load = fmt::format("Load {}", name),
                      clear = fmt::format("Clear {}", name);
    const bool failed = !ctx.messages.text(image_topic(slot)).empty();
    if (ui::PathInput(field.c_str(), s.image_path[slot].data(), s.image_path[slot].size(), failed))
        ctx.requests.push(request::LoadImage{slot, s.image_path[slot].data()});
    if (ui::Button(load.c_str())) ctx.requests.push(request::LoadImage{slot, s.image_path[slot].data()});
    same_line_if_fits(button_width(clear));
    if (ui::Button(clear.c_str())) ctx.requests.push(request::ClearImage{slot});
    image_source_buttons(s, ctx.requests, slot);
    std::string holds = slot == 0 ? "(gradient)" : "(checkerboard)";
    if (s.sources.loaded(slot)) {
        const Image& im = s.sources.original(slot);
        const std::string& path = s.sources.path(slot);
        holds = fmt::format("{} {}x{} -> {}x{}", path.substr(path.find_last_of('/') + 1), im.width, im.height,
                            s.sources.width(), s.sources.height());
    }
    same_line_if_fits(ImGui::CalcTextSize(holds.c_str()).x);
    ui::TextDisabled("%s", holds.c_str());
    if (const std::string& error = ctx.messages.text(image_topic(slot)); !error.empty()) {
        wrapped_text(kErrorColour, error);
        wrapped_disabled(s.sources.loaded(slot) ? "The previous image stays." : "The default input stays.");
    }
}

void images_section(UiState& s, const PanelContext& ctx) {
    for (int slot = 0; slot < 2; ++slot) image_slot(s, ctx, slot);
    wrapped_disabled(samples_line());
    help_marker(fmt::format("{}. {} Browse opens the desktop's file chooser (zenity) where there is one. Drop one "
                            "file on the window to load A, two to load A and B. Images are fitted to the canvas "
                            "(nearest neighbour) on load and on canvas resize.",
                            kImageFormats, samples_folder())
                    .c_str());
    if (s.sources.loaded(0) && ui::Button("Canvas size = image A")) ctx.requests.push(request::FitCanvasToImage{});
    if (ui::Button("Save canvas PNG (F12)")) ctx.requests.push(request::SaveCanvas{});
}

// One 256-bin histogram as bars of height sqrt(count) (one huge bin, a flat background, would
// flatten the rest); hovering shows the bin under the mouse and its real count.
void histogram_plot(const char* name, const std::array<std::uint32_t, 256>& bins, const ImVec4& colour, float height) {
    float top = 1.0f;
    for (std::uint32_t count : bins) top = std::max(top, std::sqrt(static_cast<float>(count)));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = std::max(64.0f, ImGui::GetContentRegionAvail().x);
    ImGui::InvisibleButton(name, ImVec2(width, height));
    ui::record_last_item(name);
    ImDrawList* d = ImGui::GetWindowDrawList();
    d->AddRectFilled(at, ImVec2(at.x + width, at.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg));
    const ImU32 fill = ImGui::GetColorU32(colour);
    for (int i = 0; i < 256; ++i) {
        const float x0 = at.x + width * i / 256.0f, x1 = at.x + width * (i + 1) / 256.0f;
        const float h = height * std::sqrt(static_cast<float>(bins[i])) / top;
        if (h > 0.0f)
            d->AddRectFilled(ImVec2(x0, at.y + height - h), ImVec2(std::max(x1, x0 + 1.0f), at.y + height), fill);
    }
    d->AddText(ImVec2(at.x + 4, at.y + 2), ImGui::GetColorU32(ImGuiCol_Text), name);
    if (!ImGui::IsItemHovered()) return;
    const int bin = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - at.x) * 256.0f / width), 0, 255);
    const float x0 = at.x + width * bin / 256.0f;
    d->AddRectFilled(ImVec2(x0, at.y), ImVec2(x0 + std::max(1.0f, width / 256.0f), at.y + height),
                     IM_COL32(255, 255, 255, 60));
    ui::SetTooltip(fmt::format("{} {}: {} pixels", name, bin, bins[bin]));
}

void histogram_section(const PanelContext& ctx) {
    const OpOutputs& out = ctx.painter.outputs();
    if (!out.has_histogram) {
        ui::TextDisabled("no histogram yet");
        return;
    }
    const char* names[4] = {"luminance", "R", "G", "B"};
    const ImVec4 colours[4] = {
        {0.85f, 0.85f, 0.85f, 1}, {0.95f, 0.3f, 0.3f, 1}, {0.3f, 0.9f, 0.3f, 1}, {0.4f, 0.5f, 1.0f, 1}};
    for (int h = 0; h < 4; ++h)
        histogram_plot(names[h], out.histogram[h], colours[h], ImGui::GetFontSize() * (h == 0 ? 7.0f : 3.0f));
    wrapped_disabled("bar height: sqrt(count); 0 at the left, 255 at the right; hover a bar for its count");
    if (out.histogram_mismatches == 0) wrapped_text(kGoodColour, "global and shared versions agree");
    if (out.histogram_mismatches > 0)
        wrapped_text(kErrorColour,
                     fmt::format("global and shared versions differ in {} bins", out.histogram_mismatches));
}

void canvas_section(UiState& s, const PanelContext& ctx) {
    const auto resize = [&] { ctx.requests.push(request::ResizeCanvas{s.edit_width, s.edit_height}); };
    ui::Text("Canvas %d x %d", s.job.params.width, s.job.params.height);
    // Applied on Enter or when the field loses focus: "1920" must not resize through 1, 19, 192.
    if (ui::InputIntOnCommit("Width", &s.edit_width)) resize();
    if (ui::InputIntOnCommit("Height", &s.edit_height)) resize();
    bool first = true;
    for (auto [w, h] : {std::pair{800, 800}, {1920, 1080}, {3840, 2160}}) {
        const std::string label = fmt::format("{}x{}", w, h);
        if (!first) same_line_if_fits(button_width(label));
        first = false;
        if (ui::Button(label.c_str())) s.edit_width = w, s.edit_height = h, resize();
    }
    wrapped_disabled("Enter, or leaving a field, applies the size.");
}

// Why columns is slow, in one line: with the warp's own numbers (a narrow block undoes the damage).
void columns_why(const LaunchConfig& l, int width, int height) {
    const WarpStores w = first_warp_stores(l, width, height);
    if (w.lanes == 0) return;
    if (w.rows == w.lanes)
        wrapped(fmt::format("a warp writes {} pixels 1 column tall: {} cache lines per store instead of {} - compare "
                            "the kernel time with 2d",
                            w.lanes, w.cache_lines, w.ideal_lines));
    else
        wrapped(
            fmt::format("a warp writes {} pixels in {} rows: {} cache lines per store ({} when coalesced) - compare "
                        "the kernel time with 2d",
                        w.lanes, w.rows, w.cache_lines, w.ideal_lines));
}

// A custom op's own launch, read-only: its kernels launch this whatever the panel's block and grid say.
void own_launch_section(const UiState& s, const PanelContext& ctx) {
    const OpInfo& op = op_registry()[s.job.op];
    const LaunchConfig& l = s.resolved.launch;
    const int w = s.job.params.width, h = s.job.params.height;
    const Dim3& grid = s.resolved.grid;
    wrapped_disabled("This op launches its own kernels: the shape below is theirs, not editable.");
    ui::Text("Block %d x %d = %lld threads", l.block.x, l.block.y, l.block.count());
    ui::record_last_item("Block", to_string(l.block));
    ui::Text("Grid %d x %d = %lld blocks", grid.x, grid.y, grid.count());
    ui::record_last_item("Grid", to_string(grid));
    ui::Text("%lld threads for %lld pixels", l.block.count() * grid.count(), 1LL * w * h);
    ui::Text("Mapping %s", std::string(mapping_name(l.mapping)).c_str());
    if (!op.launch_note.empty()) wrapped_disabled(op.launch_note);
    if (ctx.painter.backend() == Backend::Cpu)
        wrapped_text(kWarnColour, "A CUDA backend launches this; the cpu backend runs a plain C++ loop instead.");
}

// The panel's block and grid, typed field by field; a field applies on Enter or when it loses focus.
void launch_fields(UiState& s) {
    LaunchConfig& l = s.job.launch;
    ui::InputIntOnCommit("Block x", &l.block.x);
    ui::InputIntOnCommit("Block y", &l.block.y);
    ui::Text("%lld threads per block", l.block.count());
    ui::Checkbox("Auto grid", &l.auto_grid);
    help_marker("Auto rounds the grid up so that the blocks cover the whole canvas. Untick it to type a grid "
                "and see what a too-small grid leaves uncovered (hatched in purple).");
    if (l.auto_grid) {
        l.grid = s.resolved.grid;
        ImGui::BeginDisabled();
    }
    ui::InputIntOnCommit("Grid x", &l.grid.x);
    ui::InputIntOnCommit("Grid y", &l.grid.y);
    if (l.auto_grid) ImGui::EndDisabled();
}

// Two preset buttons, side by side where they fit.
void preset_buttons(LaunchConfig& l, const char* tutorial, const char* fallback) {
    if (ui::Button(tutorial)) l = tutorial_preset();
    same_line_if_fits(button_width(fallback));
    if (ui::Button(fallback)) l = LaunchConfig{};
}

void view_combo(UiState& s) {
    if (ui::BeginCombo("View", std::string(view_name(s.job.view)).c_str())) {
        for (View v : all_views())
            if (ui::Selectable(std::string(view_name(v)).c_str(), v == s.job.view)) s.job.view = v;
        ImGui::EndCombo();
    }
}

void launch_section(UiState& s, const PanelContext& ctx) {
    if (op_registry()[s.job.op].custom) {
        own_launch_section(s, ctx);
        return;
    }
    launch_fields(s);
    LaunchConfig& l = s.job.launch;
    if (op_registry()[s.job.op].user_code) {
        // The rest maps threads to pixels for the built-in ops; the user's kernel does that itself.
        wrapped_disabled("Your kernel computes its own pixel: the auto grid is 2d, one thread per pixel.");
        view_combo(s);
        preset_buttons(l, "Tutorial: block 50x20, grid 80x8", "Default: 32x8, auto");
        return;
    }

    if (ui::BeginCombo("Mapping", std::string(mapping_name(l.mapping)).c_str())) {
        for (Mapping m : kAllMappings)
            if (ui::Selectable(std::string(mapping_name(m)).c_str(), m == l.mapping)) l.mapping = m;
        ImGui::EndCombo();
    }
    if (l.mapping == Mapping::Columns) columns_why(l, s.job.params.width, s.job.params.height);
    view_combo(s);
    ui::TextUnformatted("Pixels per thread");
    ImGui::SameLine();
    ui::RadioButton("1##ppt", &l.pixels_per_thread, 1);
    ImGui::SameLine();
    ui::RadioButton("4##ppt", &l.pixels_per_thread, 4);
    help_marker("4: with the 2d mapping each thread paints 4 neighbours in x with one 16-byte store. "
                "One 4-byte store per thread leaves a memory-bound kernel at about half the copy bandwidth.");
    preset_buttons(l, "Tutorial: 50x20, grid 80x8, linear", "Default: block 32x8, auto grid, 2d");

    // An illegal launch paints nothing: its refusal shows below, not counts of a launch that never runs.
    if (s.resolved.launch_refusal) return;
    const Coverage& c = s.resolved.coverage;
    ui::Text("%lld threads for %lld pixels", c.threads, c.pixels);
    if (!c.covers_all()) wrapped_text(kWarnColour, fmt::format("{} pixels uncovered", c.pixels - c.covered_pixels));
    if (c.repeated_writes > 0)
        wrapped_text(kWarnColour, fmt::format("{} repeated writes (z layers)", c.repeated_writes));
}

// A number right-aligned in its table cell, so that columns of large numbers stay apart.
void right_aligned(double value) {
    const std::string text = fmt::format("{:.1f}", value);
    const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x;
    if (room > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room);
    ui::TextUnformatted(text.c_str());
}

struct TimingRow {
    std::string name;
    const TimingStats* stats;
};

// Rows of last / mean / min in microseconds. A stage that never measured anything (nothing ran,
// or a GL timer that reads 0 on a software renderer) has no row.
void timing_table(const char* id, const char* first_column, const std::vector<TimingRow>& rows) {
    ImGui::PushFont(mono_font()); // digits of equal width: the columns line up
    if (!ImGui::BeginTable(id, 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        ImGui::PopFont();
        return;
    }
    ImGui::TableSetupColumn(first_column, ImGuiTableColumnFlags_WidthStretch, 1.4f);
    for (const char* column : {"last", "mean", "min"})
        ImGui::TableSetupColumn(column, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const TimingRow& row : rows) {
        if (row.stats->empty() || row.stats->mean() <= 0.0) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ui::TextUnformatted(row.name.c_str());
        for (double v : {row.stats->last(), row.stats->mean(), row.stats->min()}) {
            ImGui::TableNextColumn();
            right_aligned(v);
        }
    }
    ImGui::EndTable();
    ImGui::PopFont();
}

// The variant's short name as --variant and the script take it ("tiled").
std::string variant_label(int v) { return std::string(find_param("variant")->choices[v]); }

// The variants' kernel times side by side, and how many times faster than naive each other one is.
void variants_table(const UiState& s, const OpInfo& op, const StageTimes& t) {
    for (int v = 0; v < op.variants; ++v)
        if (t.variant[v].empty()) return;
    std::vector<TimingRow> rows;
    std::string names;
    for (int v = 0; v < op.variants; ++v) {
        rows.push_back({variant_label(v) + (v == s.job.params.variant ? " *" : ""), &t.variant[v]});
        names += fmt::format("{}: {}; ", variant_label(v), op.variant_names[v]);
    }
    timing_table("variants", "variant (us)", rows);
    for (int v = 1; v < op.variants; ++v)
        if (t.variant[v].mean() > 0)
            ui::Text("naive / %s = %.2fx (mean)", variant_label(v).c_str(), t.variant[0].mean() / t.variant[v].mean());
    wrapped_disabled(names + "* paints the canvas");
}

// Each kernel time's share of its roofline, a copy of the bytes it must move (ops/roofline.h): every
// variant's when they all ran, else the kernel's. CUDA only: the cpu backend has no copy figure.
void roofline_lines(const UiState& s, const OpInfo& op, const StageTimes& t, double copy_gbs, bool all_variants) {
    const int w = s.job.params.width, h = s.job.params.height;
    if (copy_gbs <= 0) return; // the cpu backend: no copy figure, nothing to say
    const unsigned generated = generated_inputs(op, s.sources.loaded(0), s.sources.loaded(1));
    if (generated) {
        wrapped_disabled(generated_inputs_note(generated));
        return;
    }
    if (all_variants && op.variants > 1) {
        for (int v = 0; v < op.variants; ++v)
            if (const std::string line = roofline_text(variant_label(v), op, w, h, t.variant[v].mean(), copy_gbs);
                !line.empty())
                wrapped(line);
        return;
    }
    const std::string name = op.variants > 1 ? variant_label(s.job.params.variant) : "kernel";
    if (const std::string line = roofline_text(name, op, w, h, t.kernel.mean(), copy_gbs); !line.empty()) wrapped(line);
}

void timing_section(UiState& s, const PanelContext& ctx) {
    if (ctx.sweep && ctx.sweep->running()) {
        // Its samples come and go shape by shape: rows and the plot would make the panel (and
        // the tuner's Cancel below) jump every frame. Its figures are in Tune the block.
        wrapped_disabled("The block tuner is measuring: its figures are in Tune the block.");
        return;
    }
    const StageTimes& t = ctx.painter.times();
    const OpInfo& op = op_registry()[s.job.op];
    const double bytes =
        double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * s.job.params.width * s.job.params.height;
    timing_table(
        "stages", "stage (us)",
        {{"kernel", &t.kernel}, {"map", &t.map}, {"unmap", &t.unmap}, {"copy", &t.copy}, {"upload", &t.upload}});
    const bool all_variants = op.variants > 1 && ctx.painter.ran_both_variants();
    if (all_variants) variants_table(s, op, t);
    if (const double flops = op.flops(s.job.params); flops > 0 && !t.kernel.empty())
        wrapped(fmt::format("{:.1f} GFLOP/s (mean kernel time, {:.3g} flop)", flops / (t.kernel.mean() * 1e3), flops));
    if (!t.kernel.empty() && bytes > 0)
        wrapped(fmt::format("Bandwidth {:.3g} GB/s (mean kernel time)", bytes / (t.kernel.mean() * 1e3)));
    if (!t.kernel.empty()) roofline_lines(s, op, t, ctx.painter.copy_gbs(), all_variants);
    if (!t.kernel.empty()) {
        const auto history = t.kernel.history();
        const float top = *std::max_element(history.begin(), history.end()) * 1.15f;
        ImGui::PlotLines("##kernel", history.data(), static_cast<int>(history.size()), 0,
                         "kernel time (us), 0 at the bottom", 0.0f, top,
                         ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.5f));
    }
    ui::Text("Frame %.2f ms (%.0f fps)", ctx.frame_ms, ctx.frame_ms > 0 ? 1000.0 / ctx.frame_ms : 0.0);
    if (ui::TreeNode("Where the frame goes (CPU, us)")) {
        const FrameBreakdown& b = ctx.breakdown;
        timing_table(
            "frame", "part (us)",
            {{"paint", &b.paint}, {"panel", &b.panel}, {"draw", &b.draw}, {"swap", &b.swap}, {"frame", &b.frame}});
        wrapped_disabled("paint: map + launch + unmap + present, as the CPU sees them.");
        wrapped_disabled("panel: building the ImGui panel.");
        wrapped_disabled("draw: canvas + ImGui on the GPU queue.");
        wrapped_disabled("swap: glfwSwapBuffers (waits for vsync when it is on).");
        ImGui::TreePop();
    }
    if (bool vsync = s.vsync; ui::Checkbox("VSync", &vsync)) ctx.requests.push(request::SetVsync{vsync});
    help_marker("Turn vsync off while measuring: with it on, frames wait for the display.");
}

// Which backends work here, each reason said once: on a machine without an NVIDIA GPU or driver
// both CUDA backends fail for the same reason, which is one line with what still works.
void backend_availability(const FramePainter& p) {
    const std::string& interop = p.unavailable_reason(Backend::CudaInterop);
    const std::string& staged = p.unavailable_reason(Backend::CudaStaged);
    if (!staged.empty()) {
        std::string why = staged;
        why[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(why[0])));
        wrapped_text(kWarnColour, why + ".");
        wrapped_disabled("What works: the cpu backend, a CPU emulator of the grid, runs every op, and your own kernel "
                         "compiled for the CPU.");
        return;
    }
    if (!interop.empty()) wrapped_disabled("cuda-interop unavailable: " + interop + ". cuda-staged works.");
}

// Which way the last frame went under present direct, and why when it was copied.
void route_line(const FramePainter& p) {
    if (p.route() == FrameRoute::Direct)
        wrapped_disabled("This frame: the kernel wrote the texture directly (no copy).");
    else if (p.route() == FrameRoute::Copy)
        wrapped_disabled("This frame: copied into the texture, as " + p.why_copied() + ".");
}

void backend_section(UiState& s, const PanelContext& ctx) {
    const FramePainter& p = ctx.painter;
    wrapped("Device: " + p.device().name);
    if (ui::BeginCombo("Backend", std::string(backend_name(s.backend)).c_str())) {
        for (Backend b : kAllBackends) {
            const bool unavailable = !p.unavailable_reason(b).empty();
            if (unavailable) ImGui::BeginDisabled();
            if (ui::Selectable(std::string(backend_name(b)).c_str(), b == s.backend))
                ctx.requests.push(request::SetBackend{b});
            if (unavailable) ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    if (p.backend() == Backend::CudaInterop) {
        int present = static_cast<int>(p.present());
        for (Present option : kAllPresents) {
            if (option != kAllPresents[0]) same_line_if_fits(radio_width(present_name(option)));
            ui::RadioButton(std::string(present_name(option)).c_str(), &present, static_cast<int>(option));
        }
        help_marker("How the kernel's pixels reach the texture. pbo: the kernel writes a GL pixel buffer that "
                    "glTexSubImage2D uploads. texture: cudaMemcpy2DToArray copies CUDA memory into the GL texture. "
                    "surface: a copy kernel writes CUDA memory into the GL texture through a surface object. "
                    "direct: the op's own kernel writes the GL texture through a surface object, no copy; a frame "
                    "that needs its pixels in memory (a teaching view, the inspector, step mode, custom ops, your "
                    "kernel) takes the surface copy. Compare their times below.");
        if (present != static_cast<int>(p.present()))
            ctx.requests.push(request::SetPresent{static_cast<Present>(present)});
        if (p.present() == Present::Direct) route_line(p);
    }
    backend_availability(p);
}

// How to zoom and pan, the UI scale and where the panel goes.
void window_section(UiState& s) {
    const bool fractal = uses_param(op_registry()[s.job.op], "zoom");
    ui::TextDisabled("%s", fractal ? "Canvas: Ctrl+wheel zooms the view (wheel and left drag move the fractal); "
                                     "middle or right drag pans; + and - keys zoom."
                                   : "Canvas: the wheel zooms about the cursor; drag (any button) pans; + and - "
                                     "keys zoom. Fit and 1:1 are in the status bar.");
    ui::SliderInt("UI scale", &s.ui_scale_edit, UiSettings::kMinScalePercent, UiSettings::kMaxScalePercent, "%d%%");
    // Applied on release: rescaling while dragging would move the slider under the mouse.
    if (ImGui::IsItemDeactivatedAfterEdit()) s.settings.ui_scale_percent = s.ui_scale_edit;
    ui::TextDisabled("times the monitor's scale; now %.0f%% in all", s.ui_scale * 100.0f);
    ui::Checkbox("Panel on the right", &s.settings.panel_right);
    help_marker("Drag the panel's inner edge to resize it. Hide panel (status bar) gives the canvas the whole window.");
}

// The panel's sections, top to bottom: a header each (or none: drawn as they are), open at first
// or not, shown for every op or only where `shown` says.
struct Section {
    const char* title; // nullptr: no header
    bool open_at_first;
    bool (*shown)(const UiState&);
    void (*draw)(UiState&, const PanelContext&);
};

bool always(const UiState&) { return true; }
bool user_code(const UiState& s) { return op_registry()[s.job.op].user_code; }
bool makes_histogram(const UiState& s) { return op_registry()[s.job.op].makes_histogram; }

// Why the last paint was refused, or failed, under the launch that caused it.
void paint_problems(UiState&, const PanelContext& ctx) {
    if (const std::string& refusal = ctx.messages.text(Topic::Launch); !refusal.empty()) {
        wrapped_text(kErrorColour, "Launch refused: " + refusal);
        wrapped_disabled("The previous picture stays until the launch is legal.");
    }
    if (const std::string& error = ctx.messages.text(Topic::Paint); !error.empty())
        wrapped_text(kErrorColour, "Error: " + error);
}

constexpr Section kSections[] = {
    {"Lessons", false, always, lesson_section}, // first, so a step's caption shows at any scale; a new step opens it
    {"Exercises", false, always, exercise_section},
    {nullptr, false, always, backend_section},
    {"Operation and parameters", true, always, operation_section},
    {"Your kernel", true, user_code, kernel_section},
    {"Images", true, always, images_section},
    {"Histogram", true, makes_histogram, [](UiState&, const PanelContext& ctx) { histogram_section(ctx); }},
    {"Launch", true, always, launch_section},
    {nullptr, false, always, paint_problems},
    {nullptr, false, always, teaching_sections}, // "Indexing" and "Device", headers of their own (teach_panel.cpp)
    {"Time", false, always, [](UiState& s, const PanelContext&) { time_section(s); }},
    {"Record", false, always, [](UiState& s, const PanelContext& ctx) { record_section(s, ctx.requests); }},
    {"Timing", true, always, timing_section},
    {"SM timeline", false, always, timeline_section},
    {"A/B split", false, always, ab_section},
    {"Tune the block", false, always, tune_section},
    {"Canvas", false, always, canvas_section},
    {"Preset and command line", false, always, preset_section},
    {"Window and view", false, always, [](UiState& s, const PanelContext&) { window_section(s); }},
};

void panel_sections(UiState& s, const PanelContext& ctx) {
    const bool new_step = apply_lesson_step(s, ctx.requests); // its picture, before the sections show it
    poll_exercise_check(s, ctx.messages);                     // a check that ended, even with its section closed
    for (const Section& section : kSections) {
        if (!section.shown(s)) continue;
        if (new_step && section.draw == lesson_section) ImGui::SetNextItemOpen(true);
        const ImGuiTreeNodeFlags flags = section.open_at_first ? ImGuiTreeNodeFlags_DefaultOpen : 0;
        if (!section.title || ui::CollapsingHeader(section.title, flags)) section.draw(s, ctx);
    }
}

} // namespace

RectD draw_panel(UiState& s, const PanelContext& ctx) {
    draw_status_bar(s, ctx.messages); // first: the panel and the canvas end where it begins
    if (place_panel(s)) {
        const ImGuiWindowFlags flags =
            ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
            ImGuiWindowFlags_NoSavedSettings |
            ImGuiWindowFlags_NoBringToFrontOnFocus; // the editor's window and the tooltips stay above it
        ImGui::Begin("Kernel Canvas", nullptr, flags);
        // Prose wraps at any panel width; controls leave room for their labels.
        ImGui::PushTextWrapPos(0.0f);
        ImGui::PushItemWidth(-ImGui::GetFontSize() * 9.0f);
        panel_sections(s, ctx);
        ImGui::PopItemWidth();
        ImGui::PopTextWrapPos();
        ImGui::End();
        draw_panel_edge(s);
    }
    image_choosers(s, ctx.requests);
    kernel_editor_window(s, ctx);
    replace_kernel_dialog(s, ctx);
    unsaved_kernel_dialog(s, ctx);
    recording_quit_dialog(s, ctx.requests);
    kernel_fault_dialog(s, ctx);
    return canvas_area(s);
}

} // namespace kc
