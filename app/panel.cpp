#include "panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "kernel_panel.h"
#include "registry.h"
#include "teach_panel.h"
#include "thread_of_pixel.h"
#include "tune_panel.h"
#include "ui_scale.h"
#include "widgets.h"
#include "window_layout.h"

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

// The Julia set is centred on 0, the Mandelbrot set on -0.5 (as --op gives them): a switch
// between the two recentres the view instead of showing one off-centre in the other's place.
void select_op(PaintJob& job, const OpInfo& op) {
    const bool was_julia = (op_registry()[job.op].uses & kUsesJulia) != 0, is_julia = (op.uses & kUsesJulia) != 0;
    if ((op.uses & kUsesFractal) && was_julia != is_julia) {
        job.params.center_x = is_julia ? 0.0 : -0.5;
        job.params.center_y = 0.0;
    }
    job.op = op.index;
}

// Controls that share a line move to the next one when the panel is too narrow for them.
void same_line_if_room(float next_width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetItemRectMax().x + style.ItemSpacing.x + next_width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float button_width(const std::string& label) {
    return ImGui::CalcTextSize(label.c_str(), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float radio_width(const std::string& label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
           ImGui::CalcTextSize(label.c_str(), nullptr, true).x;
}

void operation_section(UiState& s, const PanelContext& ctx) {
    const auto ops = op_registry();
    if (ui::BeginCombo("Operation", std::string(ops[s.job.op].title).c_str())) {
        for (const OpInfo& op : ops)
            if (ui::Selectable(std::string(op.title).c_str(), op.index == s.job.op)) select_op(s.job, op);
        ImGui::EndCombo();
    }
    const OpInfo& op = ops[s.job.op];
    OpParams& p = s.job.params;
    ImGui::TextWrapped("%s", std::string(op.formula).c_str());
    if (op.custom) {
        ImGui::TextDisabled("Own kernels with 16x16 blocks: the Launch section does not apply.");
        if (ctx.painter.backend() == Backend::Cpu)
            ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.4f, 1.0f),
                               "CPU backend: a plain C++ implementation, not the grid emulator (shared memory and "
                               "barriers are not emulated); both variants run the same code.");
    }
    if (op.variants == 2) {
        for (int v = 0; v < 2; ++v) {
            if (v) same_line_if_room(radio_width(std::string(op.variant_names[v])));
            ui::RadioButton(std::string(op.variant_names[v]).c_str(), &p.variant, v);
        }
        ui::Checkbox("Run both variants each frame", &s.both_variants);
        help_marker("The other variant runs first, timed; the selected one paints the canvas.");
    }
    if (op.uses & kUsesWeight) {
        ui::SliderFloat("Blend weight", &p.weight, 0.0f, 1.0f, "%.3f");
        help_marker("blend = round(w*A + (1-w)*B). The tutorial's 3/4 - 1/4 merge is 0.75.");
    }
    if (op.uses & kUsesCell) {
        ui::SliderInt("Cell size", &p.cell, 1, 400);
        p.cell = std::max(1, p.cell);
    }
    if (op.uses & kUsesLevel) ui::SliderInt("Level", &p.level, 0, 256);
    if (op.uses & kUsesRadius) ui::SliderInt("Radius", &p.radius, 0, kMaxBlurRadius);
    if (op.uses & kUsesFractal) {
        ui::SliderInt("Iterations", &p.max_iter, 1, 5000, "%d", ImGuiSliderFlags_Logarithmic);
        ui::Checkbox("Double precision", &p.use_double);
        help_marker("Float runs out of precision after a zoom of about 10^4: the picture turns blocky. Double "
                    "goes to about 10^13, at a cost that depends on the GPU's FP64 rate.");
        ImGui::Text("Centre %.10g, %.10g  zoom %.3g", p.center_x, p.center_y, 3.0 / 800 / p.scale);
        ImGui::TextDisabled("Drag on the canvas to pan, mouse wheel to zoom; Ctrl+wheel zooms the view instead.");
        if (op.uses & kUsesJulia) ui::SliderFloat2("Julia k (re, im)", &p.julia_re, -1.5f, 1.5f, "%.4f");
        if (ui::Button("Reset view")) {
            p.center_x = (op.uses & kUsesJulia) ? 0.0 : -0.5, p.center_y = 0.0;
            p.scale = 3.0 / std::max(1, std::min(p.width, p.height));
        }
    }
    if (op.uses & kUsesMatmulN) {
        ui::SliderInt("N", &p.matmul_n, 16, 4096, "%d", ImGuiSliderFlags_Logarithmic);
        p.matmul_n = std::clamp(p.matmul_n / 16 * 16, 16, 4096);
        ImGui::TextDisabled("A, B: fixed pseudo-random values in [-1, 1]; C = A*B as blue-white-red.");
    }
    if ((op.uses & (kUsesImageA | kUsesImageB)) && !s.sources.loaded(0))
        ImGui::TextDisabled("No image loaded: A is the gradient, B the checkerboard.");
}

void images_section(UiState& s) {
    for (int slot = 0; slot < 2; ++slot) {
        ImGui::PushID(slot);
        const char* label = slot == 0 ? "Image A" : "Image B";
        ui::InputText(label, s.image_path[slot].data(), s.image_path[slot].size());
        if (ui::Button("Load")) s.load_request[slot] = std::string(s.image_path[slot].data());
        ImGui::SameLine();
        if (ui::Button("Clear")) s.clear_request[slot] = true;
        ImGui::SameLine();
        if (s.sources.loaded(slot)) {
            const Image& im = s.sources.original(slot);
            const std::string& path = s.sources.path(slot);
            ImGui::TextDisabled("%s %dx%d -> %dx%d", path.substr(path.find_last_of('/') + 1).c_str(), im.width, im.height,
                                s.sources.width(), s.sources.height());
        } else {
            ImGui::TextDisabled(slot == 0 ? "(gradient)" : "(checkerboard)");
        }
        ImGui::PopID();
    }
    help_marker("PNG, JPEG, BMP or TGA. Drop one file on the window to load A, two to load A and B. Images are "
                "fitted to the canvas by nearest-neighbour resize, once on load or canvas resize.");
    if (s.sources.loaded(0) && ui::Button("Canvas size = image A")) s.fit_canvas_to_image = true;
    if (!s.image_error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "%s", s.image_error.c_str());
        ImGui::TextDisabled("The previous image stays.");
        ImGui::PopTextWrapPos();
    }
    if (ui::Button("Save canvas PNG (F12)")) s.save_request = true;
}

void histogram_section(const PanelContext& ctx) {
    const OpOutputs& out = ctx.painter.outputs();
    if (!out.has_histogram) {
        ImGui::TextDisabled("no histogram yet");
        return;
    }
    const char* names[4] = {"luminance", "R", "G", "B"};
    const ImVec4 colours[4] = {{0.85f, 0.85f, 0.85f, 1}, {0.95f, 0.3f, 0.3f, 1}, {0.3f, 0.9f, 0.3f, 1}, {0.4f, 0.5f, 1.0f, 1}};
    for (int h = 0; h < 4; ++h) {
        float bins[256];
        float top = 0;
        // Square-root heights: one huge bin (a flat background) would flatten the rest.
        for (int i = 0; i < 256; ++i) top = std::max(top, bins[i] = std::sqrt(static_cast<float>(out.histogram[h][i])));
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colours[h]);
        ImGui::PlotHistogram(fmt::format("##h{}", h).c_str(), bins, 256, 0, names[h], 0.0f, top,
                             ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * (h == 0 ? 7.0f : 3.0f)));
        ImGui::PopStyleColor();
    }
    ImGui::TextDisabled("bar height: sqrt(count); 0 at the left, 255 at the right");
    if (out.histogram_mismatches == 0) ImGui::TextColored(ImVec4(0.4f, 1, 0.4f, 1), "global and shared versions agree");
    if (out.histogram_mismatches > 0)
        ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "global and shared versions differ in %d bins", out.histogram_mismatches);
}

void canvas_section(UiState& s) {
    ImGui::Text("Canvas %d x %d", s.job.params.width, s.job.params.height);
    ui::InputInt("Width", &s.edit_width, 0, 0);
    ui::InputInt("Height", &s.edit_height, 0, 0);
    if (ui::Button("Apply size")) s.apply_size = true;
    for (auto [w, h] : {std::pair{800, 800}, {1920, 1080}, {3840, 2160}}) {
        const std::string label = fmt::format("{}x{}", w, h);
        same_line_if_room(button_width(label));
        if (ui::Button(label.c_str())) s.edit_width = w, s.edit_height = h, s.apply_size = true;
    }
}

// Why columns is slow, in one line: with the warp's own numbers (a narrow block undoes the damage).
void columns_why(const LaunchConfig& l, int width, int height) {
    const WarpStores w = first_warp_stores(l, width, height);
    if (w.lanes == 0) return;
    if (w.rows == w.lanes)
        ImGui::TextWrapped("a warp writes %d pixels 1 column tall: %d cache lines per store instead of %d - compare "
                           "the kernel time with 2d",
                           w.lanes, w.cache_lines, w.ideal_lines);
    else
        ImGui::TextWrapped("a warp writes %d pixels in %d rows: %d cache lines per store (%d when coalesced) - compare "
                           "the kernel time with 2d",
                           w.lanes, w.rows, w.cache_lines, w.ideal_lines);
}

void launch_section(UiState& s) {
    LaunchConfig& l = s.job.launch;
    ui::InputInt2("Block x, y", &l.block.x);
    ImGui::Text("%lld threads per block", l.block.count());
    ui::Checkbox("Auto grid", &l.auto_grid);
    help_marker("Auto rounds the grid up so that the blocks cover the whole canvas. Untick it to type a grid "
                "and see what a too-small grid leaves uncovered (hatched in purple).");
    if (l.auto_grid) {
        l.grid = resolved_grid(effective_launch(s.job), s.job.params.width, s.job.params.height);
        ImGui::BeginDisabled();
    }
    ui::InputInt2("Grid x, y", &l.grid.x);
    if (l.auto_grid) ImGui::EndDisabled();
    if (op_registry()[s.job.op].user_code) {
        // The rest maps threads to pixels for the built-in ops; the user's kernel does that itself.
        ImGui::TextDisabled("Your kernel computes its own pixel: the auto grid is 2d, one thread per pixel.");
        if (ui::Button("Tutorial: block 50x20, grid 80x8")) l = tutorial_preset();
        same_line_if_room(button_width("Default: 32x8, auto"));
        if (ui::Button("Default: 32x8, auto")) l = LaunchConfig{};
        return;
    }

    if (ui::BeginCombo("Mapping", std::string(mapping_name(l.mapping)).c_str())) {
        for (Mapping m : kAllMappings)
            if (ui::Selectable(std::string(mapping_name(m)).c_str(), m == l.mapping)) l.mapping = m;
        ImGui::EndCombo();
    }
    if (l.mapping == Mapping::Columns) columns_why(l, s.job.params.width, s.job.params.height);
    if (ui::BeginCombo("View", std::string(view_name(s.job.view)).c_str())) {
        for (View v : all_views())
            if (ui::Selectable(std::string(view_name(v)).c_str(), v == s.job.view)) s.job.view = v;
        ImGui::EndCombo();
    }
    ImGui::TextUnformatted("Pixels per thread");
    ImGui::SameLine();
    ui::RadioButton("1##ppt", &l.pixels_per_thread, 1);
    ImGui::SameLine();
    ui::RadioButton("4##ppt", &l.pixels_per_thread, 4);
    help_marker("4: with the 2d mapping each thread paints 4 neighbours in x with one 16-byte store. "
                "One 4-byte store per thread leaves a memory-bound kernel at about half the copy bandwidth.");
    if (ui::Button("Tutorial: block 50x20, grid 80x8, linear")) l = tutorial_preset();
    if (ui::Button("Default: block 32x8, auto grid, 2d")) l = LaunchConfig{};

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
    ImGui::PushFont(mono_font()); // the columns line up
    ImGui::Text("%-7s %8s %8s %8s  (us)", "", "last", "mean", "min");
    timing_line("kernel", t.kernel);
    timing_line("map", t.map);
    timing_line("unmap", t.unmap);
    timing_line("copy", t.copy);
    timing_line("upload", t.upload);
    ImGui::PopFont();
    if (op.variants == 2) {
        for (int v = 0; v < 2; ++v)
            if (!t.variant[v].empty())
                ImGui::Text("%-30s %8.1f us%s", std::string(op.variant_names[v]).c_str(), t.variant[v].mean(),
                            v == s.job.params.variant ? "  (shown)" : "");
        if (!t.variant[0].empty() && !t.variant[1].empty() && t.variant[1].mean() > 0)
            ImGui::Text("naive / tiled = %.2fx", t.variant[0].mean() / t.variant[1].mean());
    }
    if (const double flops = op.flops(s.job.params); flops > 0 && !t.kernel.empty())
        ImGui::Text("%.1f GFLOP/s (mean kernel time, %.3g flop)", flops / (t.kernel.mean() * 1e3), flops);
    if (!t.kernel.empty() && bytes > 0) {
        ImGui::Text("Bandwidth %.1f GB/s (mean kernel time)", bytes / (t.kernel.mean() * 1e3));
    }
    if (!t.kernel.empty()) {
        const auto history = t.kernel.history();
        const float top = *std::max_element(history.begin(), history.end()) * 1.15f;
        ImGui::PlotLines("##kernel", history.data(), static_cast<int>(history.size()), 0,
                         "kernel time (us), 0 at the bottom", 0.0f, top,
                         ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.5f));
    }
    ImGui::Text("Frame %.2f ms (%.0f fps)", ctx.frame_ms, ctx.frame_ms > 0 ? 1000.0 / ctx.frame_ms : 0.0);
    if (ui::TreeNode("Where the frame goes (CPU, us)")) {
        const FrameBreakdown& b = ctx.breakdown;
        ImGui::PushFont(mono_font());
        for (auto [name, stats] : {std::pair{"paint", &b.paint}, {"panel", &b.panel}, {"draw", &b.draw},
                                   {"swap", &b.swap}, {"frame", &b.frame}})
            timing_line(name, *stats);
        ImGui::PopFont();
        ImGui::TextDisabled("paint: map + launch + unmap + present, as the CPU sees them;\n"
                            "panel: building the ImGui panel; draw: canvas + ImGui on the GPU queue;\n"
                            "swap: glfwSwapBuffers (waits for vsync when it is on).");
        ImGui::TreePop();
    }
    ui::Checkbox("VSync", &s.vsync);
    help_marker("Turn vsync off while measuring: with it on, frames wait for the display.");
}

void backend_section(UiState& s, const PanelContext& ctx) {
    const FramePainter& p = ctx.painter;
    ImGui::Text("Device: %s", p.device().name.c_str());
    if (ui::BeginCombo("Backend", std::string(backend_name(s.requested_backend)).c_str())) {
        for (Backend b : kAllBackends) {
            const std::string& why = p.unavailable_reason(b);
            if (!why.empty()) ImGui::BeginDisabled();
            if (ui::Selectable(std::string(backend_name(b)).c_str(), b == s.requested_backend)) s.requested_backend = b;
            if (!why.empty()) ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    if (p.backend() == Backend::CudaInterop) {
        int present = static_cast<int>(p.present());
        for (Present option : kAllPresents) {
            if (option != kAllPresents[0]) same_line_if_room(radio_width(std::string(present_name(option))));
            ui::RadioButton(std::string(present_name(option)).c_str(), &present, static_cast<int>(option));
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

// How to zoom and pan, the UI scale and where the panel goes.
void window_section(UiState& s) {
    const bool fractal = op_registry()[s.job.op].uses & kUsesFractal;
    ImGui::TextDisabled("%s", fractal ? "Canvas: Ctrl+wheel zooms the view (wheel and left drag move the fractal); "
                                        "middle or right drag pans; + and - keys zoom."
                                      : "Canvas: the wheel zooms about the cursor; drag (any button) pans; + and - "
                                        "keys zoom. Fit and 1:1 are in the status bar.");
    ui::SliderInt("UI scale", &s.ui_scale_edit, UiSettings::kMinScalePercent, UiSettings::kMaxScalePercent, "%d%%");
    // Applied on release: rescaling while dragging would move the slider under the mouse.
    if (ImGui::IsItemDeactivatedAfterEdit()) s.settings.ui_scale_percent = s.ui_scale_edit;
    ImGui::TextDisabled("times the monitor's scale; now %.0f%% in all", s.ui_scale * 100.0f);
    ui::Checkbox("Panel on the right", &s.settings.panel_right);
    help_marker("Drag the panel's inner edge to resize it. Hide panel (status bar) gives the canvas the whole window.");
}

// The sections in groups: operation and images, launch and indexing, timing, device, the window.
void panel_sections(UiState& s, const PanelContext& ctx) {
    const OpInfo& op = op_registry()[s.job.op];
    backend_section(s, ctx);
    if (ui::CollapsingHeader("Operation and parameters", ImGuiTreeNodeFlags_DefaultOpen)) operation_section(s, ctx);
    if (op.user_code && ui::CollapsingHeader("Your kernel", ImGuiTreeNodeFlags_DefaultOpen)) kernel_section(s, ctx);
    if (ui::CollapsingHeader("Images", ImGuiTreeNodeFlags_DefaultOpen)) images_section(s);
    if (op.makes_histogram && ui::CollapsingHeader("Histogram", ImGuiTreeNodeFlags_DefaultOpen)) histogram_section(ctx);
    if (ui::CollapsingHeader("Launch", op.custom ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) launch_section(s);
    if (s.refusal) {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "Launch refused: %s", s.refusal->c_str());
        ImGui::TextDisabled("The previous picture stays until the launch is legal.");
    }
    if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "Error: %s", s.error.c_str());
    teaching_sections(s, ctx); // "Indexing" and "Device" (teach_panel.cpp)
    if (ui::CollapsingHeader("Timing", ImGuiTreeNodeFlags_DefaultOpen)) timing_section(s, ctx);
    if (ui::CollapsingHeader("Tune the block")) tune_section(s, ctx);
    if (ui::CollapsingHeader("Canvas")) canvas_section(s);
    if (ui::CollapsingHeader("Window and view")) window_section(s);
}

} // namespace

RectD draw_panel(UiState& s, const PanelContext& ctx) {
    draw_status_bar(s); // first: the panel and the canvas end where it begins
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
    unsaved_kernel_dialog(s);
    kernel_fault_dialog(s);
    return canvas_area(s);
}

} // namespace kc
