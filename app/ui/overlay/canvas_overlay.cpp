// The canvas overlay: the inspector's tooltip and block outline, every block's boundary, and the
// tint over pixels that several threads write. Drawn with ImGui's background draw list, which
// lands on top of the GL-drawn canvas and under the panel.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "app/ui/overlay/canvas_overlay.h"
#include "app/ui/panels/teach_panel.h"
#include "app/ui/widgets.h"
#include "gpu/block_timeline.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"

namespace kc {

namespace {

// Canvas pixel coordinates to screen (ImGui) points, from the window's CanvasView. Lines go
// through framebuffer pixel centres, so that a 1-pixel line stays one crisp pixel at any zoom.
struct CanvasTransform {
    RectD image;      // where the picture lands
    float sx, sy;     // screen points per canvas pixel
    double per_point; // framebuffer pixels per point
    explicit CanvasTransform(const CanvasView& v)
        : image(v.image_rect()), sx(float(v.zoom())), sy(float(v.zoom())), per_point(v.pixels_per_point()) {}
    ImVec2 to_screen(float px, float py) const { return ImVec2(float(image.x + px * sx), float(image.y + py * sy)); }
    ImVec2 line_at(float px, float py) const {
        auto centre = [&](double v) { return float((std::floor(v * per_point) + 0.5) / per_point); };
        return ImVec2(centre(image.x + px * sx), centre(image.y + py * sy));
    }
};

// Notes over the canvas go to the top-left of what is visible of it.
ImVec2 note_at() {
    const ImVec2 clip = ImGui::GetBackgroundDrawList()->GetClipRectMin();
    return ImVec2(clip.x + 4, clip.y + 4);
}

void draw_outline(ImDrawList* d, const CanvasTransform& t, const Outline& o, ImU32 colour, float thickness) {
    ImVec2 points[8];
    const int n = static_cast<int>(std::min<std::size_t>(o.size(), 8));
    for (int i = 0; i < n; ++i) points[i] = t.line_at(float(o[i].x), float(o[i].y));
    d->AddPolyline(points, n, colour, ImDrawFlags_Closed, thickness);
}

// Every block's boundary: grid lines for 2d and columns, one outline per block run for 1D mappings. Skipped
// (with a note) when blocks would be under a few screen pixels or too many to draw.
void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h, ImU32 colour, float thickness);

void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h) {
    // A dark line under a light one: visible on light and dark views alike.
    for (const auto& [colour, thickness] :
         {std::pair{IM_COL32(0, 0, 0, 160), 3.0f}, std::pair{IM_COL32(255, 255, 255, 230), 1.0f}})
        draw_block_boundaries(d, t, l, grid, w, h, colour, thickness);
}

void draw_block_boundaries(ImDrawList* d, const CanvasTransform& t, const LaunchConfig& l, const Dim3& grid, int w,
                           int h, ImU32 colour, float thickness) {
    if (is_tiled(l.mapping)) {
        // Columns: a block is blockDim.y pixels wide and blockDim.x tall, and blockIdx.y walks x.
        const Dim3 tile = block_tile(l), tiles = grid_to_picture(l.mapping, grid);
        if (tile.x * t.sx < 3 || tile.y * t.sy < 3) {
            d->AddText(note_at(), IM_COL32(255, 255, 255, 255), "blocks too small to outline at this zoom");
            return;
        }
        const int right = int(std::min<long long>(w, 1LL * tiles.x * tile.x));
        const int bottom = int(std::min<long long>(h, 1LL * tiles.y * tile.y));
        for (int i = 0; i <= tiles.x && i * tile.x <= right; ++i)
            d->AddLine(t.line_at(float(i * tile.x), 0), t.line_at(float(i * tile.x), float(bottom)), colour, thickness);
        d->AddLine(t.line_at(float(right), 0), t.line_at(float(right), float(bottom)), colour, thickness);
        for (int i = 0; i <= tiles.y && i * tile.y <= bottom; ++i)
            d->AddLine(t.line_at(0, float(i * tile.y)), t.line_at(float(right), float(i * tile.y)), colour, thickness);
        d->AddLine(t.line_at(0, float(bottom)), t.line_at(float(right), float(bottom)), colour, thickness);
        return;
    }
    constexpr long long kMaxOutlines = 4096;
    const long long per_block = 1LL * l.block.x * l.block.y;
    const long long runs = 1LL * w * h / std::max(1LL, per_block) + 1; // one outline per block-sized run of pixels
    if (runs > kMaxOutlines || per_block * t.sx * t.sy < 9) {
        d->AddText(note_at(), IM_COL32(255, 255, 255, 255), "too many blocks to outline");
        return;
    }
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx)
            for (const Outline& o : block_outlines(l, grid, w, h, {bx, by, 0}))
                draw_outline(d, t, o, colour, thickness);
}

// `launch`: what runs (a custom op's own); `own_kernels`: a custom op, whose kernels record no writers.
void inspector_tooltip(const PaintJob& job, const LaunchConfig& launch, const PixelWriter& wr, int x, int y,
                       Pixel value, std::optional<unsigned> sm, bool is_cpu, bool own_kernels) {
    ImGui::BeginTooltip();
    ui::Text("pixel (%d, %d), index %lld", x, y, 1LL * y * job.params.width + x); // recorded: scripts read it
    ui::ColorButton("Inspected colour", ImVec4(value.r / 255.0f, value.g / 255.0f, value.b / 255.0f, 1.0f),
                    ImGuiColorEditFlags_NoTooltip, ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ui::Text("value R %d G %d B %d A %d", value.r, value.g, value.b, value.a);
    if (!wr.covered) {
        ui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "no thread writes this pixel (hatched)");
        ImGui::EndTooltip();
        return;
    }
    ImGui::Separator();
    ui::Text("blockIdx  (%d, %d, %d)   block #%lld in launch order", wr.block_idx.x, wr.block_idx.y, wr.block_idx.z,
             wr.block_in_launch);
    ui::Text("threadIdx (%d, %d, %d)   thread %d of the block", wr.thread_idx.x, wr.thread_idx.y, wr.thread_idx.z,
             wr.thread_in_block);
    ui::Text("warp %d, lane %d", wr.warp, wr.lane);
    ui::Text("global thread index %llu", wr.global_thread);
    if (launch.mapping == Mapping::GridStride) ui::Text("grid-stride pass %lld", wr.pass);
    if (job.max_blocks >= 0 && wr.block_in_launch >= job.max_blocks)
        ui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "not painted yet (step mode)");
    else if (own_kernels)
        ui::TextDisabled(is_cpu ? "cpu backend: a plain C++ loop wrote it"
                                : "SM: not recorded for this op's own kernels");
    else if (sm)
        ui::Text("%s %u", is_cpu ? "emulator worker" : "SM", *sm);
    else if (!op_registry()[job.op].user_code)
        ui::TextDisabled("SM: recorded from the next frame");
    if (wr.writers > 1 && op_registry()[job.op].user_code)
        ui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s%lld threads wrote it; the last is named above",
                        wr.writers >= 15 ? "at least " : "", wr.writers);
    else if (wr.writers > 1)
        ui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%lld threads write it (one per z layer); any may be last",
                        wr.writers);
    ImGui::EndTooltip();
}

// A refused launch says so on the canvas too, not only in the panel: what the canvas shows is the
// last picture painted, or nothing yet (e.g. your kernel on the CPU backend).
void draw_refusal_banner(const CanvasView& view, std::string_view refusal) {
    const RectD area = view.viewport();
    if (refusal.empty() || area.empty()) return;
    const std::string text =
        "Launch refused: " + std::string(refusal) + "\nThe canvas shows the last picture painted, if any.";
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize(), pad = 8.0f;
    const float wrap = std::max(100.0f, float(area.w) - 4 * pad);
    const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str());
    const ImVec2 at(float(area.x) + pad, float(area.y) + pad);
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    d->AddRectFilled(at, ImVec2(at.x + extent.x + 2 * pad, at.y + extent.y + 2 * pad), IM_COL32(20, 10, 10, 215), 4.0f);
    d->AddText(font, size, ImVec2(at.x + pad, at.y + pad), IM_COL32(255, 120, 110, 255), text.c_str(), nullptr, wrap);
}

// From 8 framebuffer pixels per canvas pixel on: a line between pixels, over the visible part only.
void draw_pixel_grid(ImDrawList* d, const CanvasView& v) {
    if (v.pixel_zoom() < 8.0) return;
    const CanvasTransform t(v);
    const RectD shown = v.visible_rect();
    const PointD first = v.to_canvas({shown.x, shown.y}), last = v.to_canvas({shown.x + shown.w, shown.y + shown.h});
    const ImU32 colour = IM_COL32(128, 128, 128, 110); // mid grey: seen on light and dark pixels alike
    const int x0 = std::max(0, int(std::ceil(first.x))), x1 = std::min(v.canvas_width(), int(last.x));
    const int y0 = std::max(0, int(std::ceil(first.y))), y1 = std::min(v.canvas_height(), int(last.y));
    for (int x = x0; x <= x1; ++x)
        d->AddLine(t.line_at(float(x), float(first.y)), t.line_at(float(x), float(last.y)), colour);
    for (int y = y0; y <= y1; ++y)
        d->AddLine(t.line_at(float(first.x), float(y)), t.line_at(float(last.x), float(y)), colour);
}

// The user's kernel's writer of a pixel, from its record word, as the model names a built-in op's.
PixelWriter recorded_writer(unsigned word, const Dim3& block, const Dim3& grid) {
    const RecordedWriter r = decode_writer(word, block, grid);
    PixelWriter w;
    w.covered = r.written;
    w.block_idx = {int(r.thread.bx), int(r.thread.by), int(r.thread.bz)};
    w.thread_idx = {int(r.thread.tx), int(r.thread.ty), int(r.thread.tz)};
    w.block_in_launch = static_cast<long long>(r.block_in_launch);
    w.thread_in_block = static_cast<int>(r.thread_in_block);
    w.warp = w.thread_in_block / 32, w.lane = w.thread_in_block % 32;
    w.global_thread = r.block_in_launch * static_cast<unsigned long long>(block.count()) + r.thread_in_block;
    w.writers = r.writers;
    return w;
}

// Outlines the pixel and its block, and names the thread in a tooltip.
void inspect(const OverlayInput& in, const Dim3& grid, const InspectedPixel& p) {
    const CanvasTransform t(in.view);
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    const LaunchConfig& l = in.resolved.launch; // what runs: a custom op's own launch, else the panel's
    const int w = in.canvas_width, h = in.canvas_height, x = p.at.x, y = p.at.y;
    const bool user_code = op_registry()[in.job.op].user_code;
    if (user_code && !p.record_word) {
        ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().MousePos.x + 16, ImGui::GetIO().MousePos.y + 12));
        ImGui::BeginTooltip();
        ui::Text("pixel (%d, %d), index %lld", x, y, 1LL * y * w + x);
        ui::TextDisabled("which thread wrote it: not recorded (raw mode needs checked mode: Your kernel, Mode)");
        ImGui::EndTooltip();
        return;
    }
    const PixelWriter wr =
        user_code ? recorded_writer(*p.record_word, l.block, grid) : thread_of_pixel(l, grid, w, h, x, y);
    if (wr.covered && !user_code) // the user's blocks have no shape the overlay knows: the colour pass outlines them
        for (const Outline& o : block_outlines(l, grid, w, h, wr.block_idx))
            draw_outline(d, t, o, IM_COL32(255, 230, 0, 255), 2.5f);
    d->AddRect(t.to_screen(float(x), float(y)), t.to_screen(float(x + 1), float(y + 1)), IM_COL32(255, 255, 255, 255));
    // Beside the pinned pixel, else the mouse, right and below where there is room. Placed here, not by
    // ImGui: after Tab its tooltips follow the keyboard's focus, away to the panel's field.
    const ImVec2 mouse = ImGui::GetIO().MousePos, offset(16, 12);
    const ImVec2 anchor = in.teach.pinned_pixel ? t.to_screen(float(x) + 0.5f, float(y) + 0.5f) : mouse;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float em = ImGui::GetFontSize(); // the tooltip is about 26 x 9 of it
    const bool flip_left = anchor.x + offset.x + 26 * em > display.x,
               flip_up = anchor.y + offset.y + 9 * em > display.y;
    ImGui::SetNextWindowPos(
        ImVec2(anchor.x + (flip_left ? -offset.x : offset.x), anchor.y + (flip_up ? -offset.y : offset.y)),
        ImGuiCond_Always, ImVec2(flip_left ? 1.0f : 0.0f, flip_up ? 1.0f : 0.0f));
    inspector_tooltip(in.job, l, wr, x, y, p.value, p.sm, in.cpu_backend, in.resolved.own);
}

// Tints over repeated writes and every block's boundary, for a legal launch.
void draw_launch_overlays(const OverlayInput& in, const Dim3& grid) {
    const CanvasTransform t(in.view);
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    const LaunchConfig& l = in.resolved.launch;
    const int w = in.canvas_width, h = in.canvas_height;
    if (op_registry()[in.job.op].user_code) return; // the painter's colour pass marks what the record shows
    if (in.teach.flag_repeats && in.resolved.coverage.multi_written_pixels > 0)
        for (const PixelRect& r : covered_rects(l, grid, w, h))
            d->AddRectFilled(t.to_screen(float(r.x), float(r.y)), t.to_screen(float(r.x + r.w), float(r.y + r.h)),
                             IM_COL32(255, 40, 40, 70));
    if (in.teach.block_outlines) draw_block_boundaries(d, t, l, grid, w, h);
}

// The block whose bar the SM timeline's mouse is over, in the chart's cyan.
void outline_timeline_block(const OverlayInput& in, long long block) {
    const LaunchConfig& l = in.resolved.launch;
    if (in.resolved.own || op_registry()[in.job.op].user_code || block >= in.resolved.grid.count()) return;
    const CanvasTransform t(in.view);
    for (const Outline& o :
         block_outlines(l, in.resolved.grid, in.canvas_width, in.canvas_height, block_index(in.resolved.grid, block)))
        draw_outline(ImGui::GetBackgroundDrawList(), t, o, IM_COL32(0, 255, 255, 255), 3.0f);
}

} // namespace

bool overlays_apply(const PaintJob& job, int canvas_width, int canvas_height) {
    return canvas_width == job.params.width && canvas_height == job.params.height;
}

std::optional<CanvasPixel> pixel_to_inspect(const PaintJob& job, const ResolvedLaunch& resolved,
                                            const TeachState& teach, const CanvasView& view, int canvas_width,
                                            int canvas_height) {
    if (!teach.inspector || resolved.launch_refusal || !overlays_apply(job, canvas_width, canvas_height))
        return std::nullopt;
    if (teach.pinned_pixel) return CanvasPixel{teach.pinned_pixel->first, teach.pinned_pixel->second};
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureMouse) return std::nullopt;
    return view.pixel_at({io.MousePos.x, io.MousePos.y});
}

InspectedPixel probe_pixel(FramePainter& painter, const Canvas& canvas, const PaintJob& job,
                           const ResolvedLaunch& resolved, CanvasPixel at) {
    InspectedPixel p{at, canvas.read_texel(at.x, at.y), std::nullopt, std::nullopt};
    if (resolved.own) return p; // custom ops' kernels record no writers
    if (!op_registry()[job.op].user_code) {
        p.sm = painter.sm_of_pixel(at.x, at.y);
        return p;
    }
    if (const auto writer = painter.user_kernel_writer(at.x, at.y)) p.record_word = writer->word, p.sm = writer->sm;
    return p;
}

void draw_canvas_overlay(const OverlayInput& in) {
    const RectD area = in.view.viewport();
    ImDrawList* d = ImGui::GetBackgroundDrawList();
    // Nothing drawn over the canvas reaches past its area (under the panel or the status bar).
    d->PushClipRect(ImVec2(float(area.x), float(area.y)), ImVec2(float(area.x + area.w), float(area.y + area.h)), true);
    draw_pixel_grid(d, in.view);
    // The launch this frame painted, as the picture shows it; none over a picture it did not paint.
    const bool legal = in.refusal.empty() && !in.resolved.launch_refusal;
    if (legal && overlays_apply(in.job, in.canvas_width, in.canvas_height)) {
        draw_launch_overlays(in, in.resolved.grid);
        if (in.inspected) inspect(in, in.resolved.grid, *in.inspected);
        if (in.timeline_block) outline_timeline_block(in, *in.timeline_block);
    }
    draw_refusal_banner(in.view, in.refusal);
    d->PopClipRect();
}

} // namespace kc
