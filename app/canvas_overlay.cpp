// The canvas overlay: the inspector's tooltip and block outline, every block's boundary, and the
// tint over pixels that several threads write. Drawn with ImGui's background draw list, which
// lands on top of the GL-drawn canvas and under the panel.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <fmt/format.h>
#include <string>

#include "registry.h"
#include "teach_panel.h"
#include "thread_of_pixel.h"
#include "widgets.h"

namespace kc {

namespace {

// Image pixel coordinates to screen (ImGui) coordinates and back.
struct CanvasTransform {
    float x, y, sx, sy;
    ImVec2 to_screen(float px, float py) const { return ImVec2(x + px * sx, y + py * sy); }
};

void draw_outline(ImDrawList* d, const CanvasTransform& t, const Outline& o, ImU32 colour, float thickness) {
    ImVec2 points[8];
    const int n = static_cast<int>(std::min<std::size_t>(o.size(), 8));
    for (int i = 0; i < n; ++i) points[i] = t.to_screen(float(o[i].x), float(o[i].y));
    d->AddPolyline(points, n, colour, ImDrawFlags_Closed, thickness);
}

// Every block's boundary: grid lines for 2d and columns, one outline per block run for 1D mappings. Skipped
// (with a note) when blocks would be under a few screen pixels or too many to draw.
void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h, ImU32 colour, float thickness);

void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h) {
    // A dark line under a light one: visible on light and dark views alike.
    for (const auto [colour, thickness] :
         {std::pair{IM_COL32(0, 0, 0, 160), 3.0f}, std::pair{IM_COL32(255, 255, 255, 230), 1.0f}})
        draw_block_boundaries(d, t, l, grid, w, h, colour, thickness);
}

void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h, ImU32 colour, float thickness) {
    if (is_tiled(l.mapping)) {
        // Columns: a block is blockDim.y pixels wide and blockDim.x tall, and blockIdx.y walks x.
        const Dim3 tile = block_tile(l), tiles = grid_to_picture(l.mapping, grid);
        if (tile.x * t.sx < 3 || tile.y * t.sy < 3) {
            d->AddText(t.to_screen(4, 4), IM_COL32(255, 255, 255, 255), "blocks too small to outline at this size");
            return;
        }
        const int right = int(std::min<long long>(w, 1LL * tiles.x * tile.x));
        const int bottom = int(std::min<long long>(h, 1LL * tiles.y * tile.y));
        for (int i = 0; i <= tiles.x && i * tile.x <= right; ++i)
            d->AddLine(t.to_screen(float(i * tile.x), 0), t.to_screen(float(i * tile.x), float(bottom)), colour,
                       thickness);
        d->AddLine(t.to_screen(float(right), 0), t.to_screen(float(right), float(bottom)), colour, thickness);
        for (int i = 0; i <= tiles.y && i * tile.y <= bottom; ++i)
            d->AddLine(t.to_screen(0, float(i * tile.y)), t.to_screen(float(right), float(i * tile.y)), colour,
                       thickness);
        d->AddLine(t.to_screen(0, float(bottom)), t.to_screen(float(right), float(bottom)), colour, thickness);
        return;
    }
    constexpr long long kMaxOutlines = 4096;
    const long long per_block = 1LL * l.block.x * l.block.y;
    const long long runs = 1LL * w * h / std::max(1LL, per_block) + 1; // one outline per block-sized run of pixels
    if (runs > kMaxOutlines || per_block * t.sx * t.sy < 9) {
        d->AddText(t.to_screen(4, 4), IM_COL32(255, 255, 255, 255), "too many blocks to outline");
        return;
    }
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx)
            for (const Outline& o : block_outlines(l, grid, w, h, {bx, by, 0}))
                draw_outline(d, t, o, colour, thickness);
}

// `sm`: the SM (or emulator worker) that wrote the pixel; `own_kernels`: a custom op, whose
// kernels record no writers.
void inspector_tooltip(const PaintJob& job, const LaunchConfig& launch, const PixelWriter& wr, int x, int y,
                       Pixel value, std::optional<unsigned> sm, bool is_cpu, bool own_kernels) {
    ImGui::BeginTooltip();
    ImGui::Text("pixel (%d, %d), index %lld", x, y, 1LL * y * job.params.width + x);
    ui::ColorButton("##value", ImVec4(value.r / 255.0f, value.g / 255.0f, value.b / 255.0f, 1.0f),
                    ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
    ImGui::SameLine();
    ImGui::Text("value R %d G %d B %d A %d", value.r, value.g, value.b, value.a);
    if (!wr.covered) {
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "no thread writes this pixel (hatched)");
        ImGui::EndTooltip();
        return;
    }
    ImGui::Separator();
    ImGui::Text("blockIdx  (%d, %d, %d)   block #%lld in launch order", wr.block_idx.x, wr.block_idx.y, wr.block_idx.z,
                wr.block_in_launch);
    ImGui::Text("threadIdx (%d, %d, %d)   thread %d of the block", wr.thread_idx.x, wr.thread_idx.y, wr.thread_idx.z,
                wr.thread_in_block);
    ImGui::Text("warp %d, lane %d", wr.warp, wr.lane);
    ImGui::Text("global thread index %llu", wr.global_thread);
    if (launch.mapping == Mapping::GridStride) ImGui::Text("grid-stride pass %lld", wr.pass);
    if (job.max_blocks >= 0 && wr.block_in_launch >= job.max_blocks)
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "not painted yet (step mode)");
    else if (own_kernels)
        ImGui::TextDisabled(is_cpu ? "cpu backend: a plain C++ loop wrote it"
                                   : "SM: not recorded for this op's own kernels");
    else if (sm)
        ImGui::Text("%s %u", is_cpu ? "emulator worker" : "SM", *sm);
    else
        ImGui::TextDisabled("SM: recorded from the next frame");
    if (wr.writers > 1)
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%lld threads write it (one per z layer); any may be last",
                           wr.writers);
    ImGui::EndTooltip();
}

// A refused launch says so on the canvas too, not only in the panel: what the canvas shows is the
// last picture painted, or nothing yet (e.g. your kernel on the CPU backend).
void draw_refusal_banner(const UiState& s) {
    const TeachState& teach = s.teach;
    if (!s.refusal || teach.canvas_w <= 0 || teach.canvas_h <= 0) return;
    const std::string text = "Launch refused: " + *s.refusal + "\nThe canvas shows the last picture painted, if any.";
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize(), pad = 8.0f;
    const float wrap = std::max(100.0f, teach.canvas_w - 4 * pad);
    const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str());
    const ImVec2 at(teach.canvas_x + pad, teach.canvas_y + pad);
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    d->AddRectFilled(at, ImVec2(at.x + extent.x + 2 * pad, at.y + extent.y + 2 * pad), IM_COL32(20, 10, 10, 215), 4.0f);
    d->AddText(font, size, ImVec2(at.x + pad, at.y + pad), IM_COL32(255, 120, 110, 255), text.c_str(), nullptr, wrap);
}

} // namespace

void draw_canvas_overlay(UiState& s, FramePainter& painter, const Canvas& canvas) {
    draw_refusal_banner(s);
    TeachState& teach = s.teach;
    const int w = canvas.width(), h = canvas.height();
    // The user's kernel maps threads to pixels in its own code: the overlays would follow the wrong mapping.
    if (teach.canvas_w <= 0 || teach.canvas_h <= 0 || w != s.job.params.width || h != s.job.params.height ||
        op_registry()[s.job.op].user_code) {
        painter.record_writers(false);
        return;
    }
    const CanvasTransform t{teach.canvas_x, teach.canvas_y, teach.canvas_w / w, teach.canvas_h / h};
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    // What runs: a custom op's own launch, else the panel's.
    const LaunchConfig l = effective_launch(s.job);
    const bool own_kernels = op_registry()[s.job.op].custom;
    const Dim3 grid = resolved_grid(l, w, h);
    // The panel may have made the launch illegal this frame, after the paint that set `refusal`.
    const bool legal = !s.refusal && !launch_error(l, w, h, universal_limits());

    if (legal && teach.flag_repeats && coverage(l, w, h).multi_written_pixels > 0)
        for (const PixelRect& r : covered_rects(l, grid, w, h))
            d->AddRectFilled(t.to_screen(float(r.x), float(r.y)), t.to_screen(float(r.x + r.w), float(r.y + r.h)),
                             IM_COL32(255, 40, 40, 70));
    if (legal && teach.block_outlines) draw_block_boundaries(d, t, l, grid, w, h);

    // The inspected pixel: the pinned one (scripts), else the one under the mouse if no window is.
    std::optional<std::pair<int, int>> pixel = teach.pinned_pixel;
    const ImGuiIO& io = ImGui::GetIO();
    if (!pixel && !io.WantCaptureMouse) {
        const int px = static_cast<int>((io.MousePos.x - t.x) / t.sx),
                  py = static_cast<int>((io.MousePos.y - t.y) / t.sy);
        if (io.MousePos.x >= t.x && io.MousePos.y >= t.y && px < w && py < h) pixel = std::pair{px, py};
    }
    const bool inspecting = teach.inspector && legal && pixel.has_value();
    painter.record_writers(inspecting && !own_kernels);
    if (!inspecting) return;
    const auto [x, y] = *pixel;
    const PixelWriter wr = thread_of_pixel(l, grid, w, h, x, y);
    if (wr.covered)
        for (const Outline& o : block_outlines(l, grid, w, h, wr.block_idx))
            draw_outline(d, t, o, IM_COL32(255, 230, 0, 255), 2.5f);
    d->AddRect(t.to_screen(float(x), float(y)), t.to_screen(float(x + 1), float(y + 1)), IM_COL32(255, 255, 255, 255));
    std::optional<unsigned> sm;
    try {
        if (!own_kernels) sm = painter.sm_of_pixel(x, y);
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    if (teach.pinned_pixel) {
        // Beside the pixel, on whichever side has room (ImGui places mouse tooltips itself).
        const ImVec2 at = t.to_screen(float(x) + 12 / t.sx, float(y) + 12 / t.sy);
        const bool right_half = at.x > ImGui::GetIO().DisplaySize.x * 0.5f;
        ImGui::SetNextWindowPos(right_half ? t.to_screen(float(x) - 12 / t.sx, float(y) + 12 / t.sy) : at,
                                ImGuiCond_Always, ImVec2(right_half ? 1.0f : 0.0f, 0.0f));
    }
    inspector_tooltip(s.job, l, wr, x, y, canvas.read_texel(x, y), sm, painter.backend() == Backend::Cpu, own_kernels);
}

} // namespace kc
