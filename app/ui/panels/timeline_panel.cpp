#include "app/ui/panels/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/block_timeline.h"
#include "gpu/device_figures.h"
#include "gpu/registry.h"
#include "gpu/thread_body.h"
#include "gpu/thread_of_pixel.h"

namespace kc {

namespace {

ImU32 to_imu32(Pixel p, int alpha = 255) { return IM_COL32(p.r, p.g, p.b, alpha); }

// Where the chart is on the screen and how time and rows map onto it.
struct ChartGeometry {
    ImVec2 origin;   // top-left of the plot (right of the row labels)
    float width = 0; // of the plot
    float row_h = 0; // per SM row
    unsigned long long t0 = 0, t1 = 1;
    float x_of(unsigned long long t) const { return origin.x + width * float(double(t - t0) / double(t1 - t0)); }
    unsigned long long t_of(float x) const {
        return t0 + static_cast<unsigned long long>(std::max(0.0, double(x - origin.x) / width * double(t1 - t0)));
    }
};

// The bar under the mouse: the block on that row whose span holds the time, else the row's nearest.
std::optional<long long> bar_at(const BlockTimeline& t, const std::vector<unsigned>& rows, const ChartGeometry& g,
                                ImVec2 mouse) {
    const int row = static_cast<int>((mouse.y - g.origin.y) / g.row_h);
    if (row < 0 || row >= static_cast<int>(rows.size())) return std::nullopt;
    std::optional<long long> best;
    float best_px = std::numeric_limits<float>::max();
    for (std::size_t n = 0; n < t.blocks.size(); ++n) {
        const BlockTime& b = t.blocks[n];
        if (!b.ran || b.sm != rows[std::size_t(row)]) continue;
        const float x0 = g.x_of(b.start), x1 = std::max(g.x_of(b.end), x0 + 1.0f);
        const float px = mouse.x < x0 ? x0 - mouse.x : (mouse.x > x1 ? mouse.x - x1 : 0.0f);
        if (px <= best_px) best = static_cast<long long>(n), best_px = px;
    }
    return best;
}

// Each wave's first start as a thin line, the tail's span shaded red on the rows it leaves idle.
void draw_waves(ImDrawList* d, const BlockTimeline& t, const TimelineWaves& w, const std::vector<unsigned>& rows,
                const ChartGeometry& g) {
    std::vector<unsigned long long> starts;
    for (const BlockTime& b : t.blocks)
        if (b.ran) starts.push_back(b.start);
    std::sort(starts.begin(), starts.end());
    const float bottom = g.origin.y + g.row_h * float(rows.size());
    // More than 40 wave lines would hide the bars: then only the tail's start is marked.
    for (long long k = w.waves <= 40 ? 1 : w.waves - 1;
         k < w.waves && k * w.first_wave < static_cast<long long>(starts.size()); ++k) {
        const float x = g.x_of(starts[std::size_t(k * w.first_wave)]);
        d->AddLine(ImVec2(x, g.origin.y), ImVec2(x, bottom), IM_COL32(255, 255, 255, 160), 1.0f);
    }
    if (w.tail_blocks == 0) return;
    const float x = g.x_of(w.tail_start), x_end = g.origin.x + g.width;
    for (unsigned idle : w.idle_in_tail) {
        const auto row = std::lower_bound(rows.begin(), rows.end(), idle) - rows.begin();
        const float y = g.origin.y + g.row_h * float(row);
        d->AddRectFilled(ImVec2(x, y), ImVec2(x_end, y + g.row_h), IM_COL32(230, 60, 60, 90));
    }
}

void bar_tooltip(const BlockTimeline& t, long long n) {
    const BlockTime& b = t.blocks[std::size_t(n)];
    const unsigned long long t0 = t.first_start();
    ImGui::BeginTooltip();
    ui::Text("%s on %s", block_label(t.grid, n).c_str(), row_label(t, b.sm).c_str());
    ui::Text("start %.2f us, end %.2f us (%.2f us)", double(b.start - t0) / 1e3, double(b.end - t0) / 1e3,
             double(b.end - b.start) / 1e3);
    ImGui::EndTooltip();
}

// The chart itself; returns the block whose bar the mouse is over.
std::optional<long long> draw_chart(const BlockTimeline& t, const TimelineWaves& w, std::optional<long long> marked) {
    const std::vector<unsigned> rows = timeline_rows(t);
    const float font = ImGui::GetFontSize(), label_w = font * 4.5f;
    ChartGeometry g;
    g.row_h = std::clamp(font * 16.0f / float(rows.size()), 2.0f, font * 1.2f);
    g.t0 = t.first_start(), g.t1 = std::max(t.last_end(), g.t0 + 1);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    g.origin = ImVec2(at.x + label_w, at.y);
    g.width = std::max(40.0f, ImGui::GetContentRegionAvail().x - label_w);
    const ImVec2 size(label_w + g.width, g.row_h * float(rows.size()));
    ui::InvisibleButton("timeline chart", size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* d = ImGui::GetWindowDrawList();
    d->AddRectFilled(g.origin, ImVec2(g.origin.x + g.width, g.origin.y + size.y), IM_COL32(20, 20, 24, 255));
    const int label_every = std::max(1, static_cast<int>(std::ceil(font / g.row_h)));
    for (std::size_t r = 0; r < rows.size(); r += std::size_t(label_every))
        d->AddText(ImVec2(at.x, g.origin.y + g.row_h * float(r)), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                   row_label(t, rows[r]).c_str());
    const unsigned long long first = t.first_start(), last = std::max(t.last_start(), first + 1);
    for (const BlockTime& b : t.blocks) {
        if (!b.ran) continue;
        const auto row = std::lower_bound(rows.begin(), rows.end(), b.sm) - rows.begin();
        const float y = g.origin.y + g.row_h * float(row), gap = g.row_h > 4 ? 1.0f : 0.0f;
        const Pixel c = start_ramp_colour(float(double(b.start - first) / double(last - first)));
        d->AddRectFilled(ImVec2(g.x_of(b.start), y + gap),
                         ImVec2(std::max(g.x_of(b.end), g.x_of(b.start) + 1.0f), y + g.row_h - gap), to_imu32(c));
    }
    draw_waves(d, t, w, rows, g);
    std::optional<long long> over = hovered ? bar_at(t, rows, g, ImGui::GetIO().MousePos) : std::nullopt;
    for (const std::optional<long long>& n : {marked, over}) { // the canvas' block, and the hovered bar
        if (!n || *n < 0 || *n >= static_cast<long long>(t.blocks.size()) || !t.blocks[std::size_t(*n)].ran) continue;
        const BlockTime& b = t.blocks[std::size_t(*n)];
        const auto row = std::lower_bound(rows.begin(), rows.end(), b.sm) - rows.begin();
        const float y = g.origin.y + g.row_h * float(row);
        d->AddRect(ImVec2(g.x_of(b.start) - 2, y - 2),
                   ImVec2(std::max(g.x_of(b.end), g.x_of(b.start) + 1) + 2, y + g.row_h + 2),
                   n == over ? IM_COL32(0, 255, 255, 255) : IM_COL32(255, 255, 255, 255), 0.0f, 0, 2.0f);
    }
    if (over) bar_tooltip(t, *over);
    return over;
}

// The waves as recorded, beside what the occupancy model says for this launch.
void wave_lines(const BlockTimeline& t, const TimelineWaves& w, const std::optional<OccupancyFigures>& model) {
    const bool cpu = t.source == TimelineSource::CpuWorkers;
    const auto plural = [](long long n, const char* one, const char* many) {
        return fmt::format("{} {}", n, n == 1 ? one : many);
    };
    wrapped(fmt::format("First wave: {} ran at once (started before the first one ended){}",
                        plural(w.first_wave, "block", "blocks"),
                        model ? fmt::format("; the model: {} per wave", model->blocks_per_wave) : ""));
    const std::string waves =
        plural(w.waves, "wave", "waves") + (model ? fmt::format(" (the model: {})", model->waves()) : std::string());
    if (w.tail_blocks == 0)
        wrapped(waves + "; the last wave is full: no tail");
    else
        wrapped(fmt::format(
            "{}; tail: {} in the last wave, {} idle in it", waves, plural(w.tail_blocks, "block", "blocks"),
            plural(static_cast<long long>(w.idle_in_tail.size()), cpu ? "worker" : "SM", cpu ? "workers" : "SMs")));
    if (cpu)
        wrapped_disabled("The emulator's workers run one block at a time each and start when the OS lets them: "
                         "resident blocks per SM and the hardware's dispatch show on a GPU only.");
}

void start_legend_bar() {
    const float w = ImGui::GetContentRegionAvail().x * 0.6f, h = ImGui::GetTextLineHeight();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* d = ImGui::GetWindowDrawList();
    for (int i = 0; i < 32; ++i)
        d->AddRectFilled(ImVec2(at.x + w * float(i) / 32, at.y), ImVec2(at.x + w * float(i + 1) / 32 + 1, at.y + h),
                         to_imu32(start_ramp_colour(float(i) / 31)));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ui::TextDisabled("early to late start");
}

} // namespace

std::optional<long long> block_of_pixel(const PaintJob& job, const ResolvedLaunch& resolved, int width, int height,
                                        std::optional<CanvasPixel> pixel) {
    if (!pixel || resolved.launch_refusal || resolved.own || op_registry()[job.op].user_code) return std::nullopt;
    const PixelWriter w = thread_of_pixel(resolved.launch, resolved.grid, width, height, pixel->x, pixel->y);
    if (!w.covered) return std::nullopt;
    return w.block_in_launch;
}

// "`what`: 4000 blocks on 132 SMs in 28.7 us", the clock's step under it, then the colour legend.
void timeline_header(const BlockTimeline& t, const TimelineWaves& w, const std::string& what) {
    const bool cpu = t.source == TimelineSource::CpuWorkers;
    const std::size_t rows = timeline_rows(t).size();
    wrapped(fmt::format("{}: {} blocks on {} {} in {:.1f} us", what, w.blocks, rows,
                        cpu ? (rows == 1 ? "emulator worker" : "emulator workers") : "SMs",
                        double(t.last_end() - t.first_start()) / 1e3));
    wrapped_disabled(fmt::format("clock step {:.0f} ns ({}): shorter bars are one tick", t.resolution_ns,
                                 cpu ? "steady_clock" : "%globaltimer"));
    start_legend_bar();
}

// A timeline recorded elsewhere (--timeline-in): the same chart and waves, labelled with where it
// was recorded; its bars tie to the canvas only while the canvas runs the same launch.
void recorded_timeline(UiState& s) {
    const RecordedTimeline& r = *s.timeline.recorded;
    const BlockTimeline& t = r.timeline;
    const TimelineWaves w = timeline_waves(t);
    const bool cpu = t.source == TimelineSource::CpuWorkers;
    timeline_header(t, w,
                    fmt::format("Recorded on {} ({}): {} {}",
                                r.device.empty() ? "a device the file does not name" : r.device, r.file,
                                r.op_name.empty() ? "an op" : r.op_name, to_string(t.block)));
    const bool same_launch =
        !s.resolved.launch_refusal && s.resolved.launch.block == t.block && s.resolved.grid == t.grid;
    const std::optional<long long> over = draw_chart(t, w, same_launch ? s.timeline.canvas_block : std::nullopt);
    s.timeline.hovered_bar = same_launch ? over : std::nullopt;
    if (over) ui::Text("bar: %s%s", block_label(t.grid, *over).c_str(), same_launch ? ", outlined on the canvas" : "");
    if (!same_launch)
        wrapped_disabled(fmt::format("The canvas runs another launch ({} blocks of {}): the bars are not tied to it.",
                                     to_string(s.resolved.grid), to_string(s.resolved.launch.block)));
    const std::optional<OccupancyFigures> model =
        cpu ? std::optional(
                  cpu_worker_occupancy(t.block, t.grid, int(std::max<std::size_t>(1, timeline_rows(t).size()))))
            : std::nullopt; // the recording GPU's limits are not in the file
    wave_lines(t, w, model);
    if (ui::Button("Close the recorded timeline")) s.timeline.recorded.reset(), s.timeline.hovered_bar.reset();
}

void timeline_section(UiState& s, const PanelContext& ctx) {
    if (s.timeline.recorded) {
        recorded_timeline(s);
        return;
    }
    ui::Checkbox("Record the timeline", &s.timeline.on);
    ImGui::SameLine();
    ui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Each block's thread 0 reads %%smid and %%globaltimer at its start and, after a barrier,\n"
                          "at its end (on the cpu backend: its worker and steady_clock). Only the per-pixel ops\n"
                          "record it; their plain kernels stay as fast as without it.");
    const OpInfo& op = op_registry()[s.job.op];
    if (op.custom || op.user_code) {
        wrapped_disabled("The timeline covers the per-pixel ops only: this op's own kernels (and your kernel) "
                         "record none.");
        s.timeline.hovered_bar.reset();
        return;
    }
    const std::optional<BlockTimeline>& t = ctx.painter.timeline();
    if (!s.timeline.on && s.job.view != View::Start) {
        s.timeline.hovered_bar.reset();
        return;
    }
    if (!t || t->empty()) {
        wrapped_disabled("No recording yet (on a GPU it is read back a few frames after its launch).");
        s.timeline.hovered_bar.reset();
        return;
    }
    const TimelineWaves w = timeline_waves(*t);
    const bool cpu = t->source == TimelineSource::CpuWorkers;
    timeline_header(*t, w, fmt::format("{} {}", op_registry()[t->op].name, to_string(t->block)));
    s.timeline.hovered_bar = draw_chart(*t, w, s.timeline.canvas_block);
    if (s.timeline.hovered_bar)
        ui::Text("bar: %s, outlined on the canvas", block_label(t->grid, *s.timeline.hovered_bar).c_str());
    else if (s.timeline.canvas_block && *s.timeline.canvas_block < static_cast<long long>(t->blocks.size()))
        ui::Text("canvas: %s, its bar marked", block_label(t->grid, *s.timeline.canvas_block).c_str());
    std::optional<OccupancyFigures> model;
    if (cpu)
        model = cpu_worker_occupancy(t->block, t->grid, int(std::max(1u, std::thread::hardware_concurrency())));
    else
        model = device_occupancy(ctx.painter.device_info(), t->op, t->block, t->grid);
    wave_lines(*t, w, model);
}

} // namespace kc
