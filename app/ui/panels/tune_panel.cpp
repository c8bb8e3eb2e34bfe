#include "app/ui/panels/tune_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <utility>

#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

namespace {

const ImVec4 kWarn(1.0f, 0.7f, 0.3f, 1.0f);
constexpr int kHeatSides = 11; // block x and y of 1, 2, 4 ... 1024

std::string shape_name(const Dim3& b) { return fmt::format("{}x{}", b.x, b.y); }
bool is_tutorial(const Dim3& b) { return b.x == 50 && b.y == 20; }

std::optional<BlockTiming> timing_of(const BlockSweep& sweep, const Dim3& block) {
    for (const BlockTiming& r : sweep.fastest_first())
        if (r.block.x == block.x && r.block.y == block.y) return r;
    return std::nullopt;
}

void start_button(const UiState& s, Requests& requests) {
    const OpInfo& op = op_registry()[s.job.op];
    if (op.custom) ImGui::BeginDisabled();
    if (ui::Button("Find the fastest block")) requests.push(request::StartTuner{});
    if (op.custom) ImGui::EndDisabled();
    ImGui::SameLine();
    ui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Times the current op with every block shape of 32..1024 threads (powers of two) and the\n"
                          "tutorial's 50x20: auto grid, the 2d mapping (columns stays columns), a few frames'\n"
                          "worth of work per frame. The same as `kcanvas bench --sweep-blocks`.");
    if (op.custom) // its block is the op's own (OpInfo::own_launch): 16x16, or the histogram's 256x1
        wrapped_disabled(fmt::format("This op launches its own {} blocks: nothing to tune.",
                                     to_string(op.own_launch(s.job.params).block)));
}

void progress_row(Requests& requests, const BlockSweep& sweep) {
    const std::string text = fmt::format("{} / {} shapes", sweep.shapes_done(), sweep.shape_count());
    const float cancel_w = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::ProgressBar(float(sweep.shapes_done()) / float(sweep.shape_count()),
                       ImVec2(ImGui::GetContentRegionAvail().x - cancel_w - ImGui::GetStyle().ItemSpacing.x, 0),
                       text.c_str());
    ui::record_last_item("Tuning progress", text);
    ImGui::SameLine();
    if (ui::Button("Cancel##tune")) requests.push(request::CancelTuner{});
}

// What the figures are of: they stay when the op or the canvas changes afterwards.
void measured_line(const BlockSweep& sweep) {
    const PaintJob& j = sweep.job();
    const OpInfo& op = op_registry()[j.op];
    std::string what =
        fmt::format("{} {}x{}, {}, on {}", op.name, j.params.width, j.params.height,
                    op.user_code ? "own indexing" : mapping_name(j.launch.mapping), backend_name(sweep.backend()));
    if (sweep.cancelled())
        what += fmt::format(": cancelled at {} / {} shapes", sweep.shapes_done(), sweep.shape_count());
    else if (!sweep.running())
        what += fmt::format(": all {} shapes tried", sweep.shape_count());
    ui::TextDisabled("%s", what.c_str());
    if (sweep.backend() == Backend::Cpu) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ui::TextWrapped("%s", kCpuTimingsWarning);
        ImGui::PopStyleColor();
    }
}

// The fastest shape with the sweep's auto grid and mapping, as the panel's launch.
void apply_block(UiState& s, Messages& messages, const BlockSweep& sweep) {
    const BlockTiming& best = sweep.fastest_first().front();
    LaunchConfig& l = s.job.launch;
    l.block = best.block;
    l.auto_grid = true;
    l.mapping = sweep.job().launch.mapping;
    messages.info(Topic::Status, fmt::format("applied block {} ({:.2f} us; auto grid, {})", shape_name(best.block),
                                             best.median_us, mapping_name(l.mapping)));
}

void best_and_apply(UiState& s, Messages& messages, const BlockSweep& sweep) {
    const BlockTiming& best = sweep.fastest_first().front();
    if (!sweep.running() && ui::Button(fmt::format("Apply block {}", shape_name(best.block)).c_str()))
        apply_block(s, messages, sweep);
    if (!sweep.running()) ImGui::SameLine();
    ui::Text("fastest %s: %.2f us", shape_name(best.block).c_str(), best.median_us);
    if (const auto tutorial = timing_of(sweep, {50, 20, 1}))
        ui::TextDisabled("the tutorial's 50x20: %.2f us, %.2fx the fastest", tutorial->median_us,
                         tutorial->median_us / std::max(1e-9, best.median_us));
}

constexpr double kRedRatio = 3.0; // this many times the fastest, or more, is red

// Green (fastest) through yellow to red (the slowest, or kRedRatio x the fastest), on a log scale
// of the time: one outlier would otherwise paint the rest green.
ImU32 time_colour(double us, double best, double worst) {
    const double span = std::log(std::clamp(worst / best, 1.0001, kRedRatio));
    const float t = float(std::clamp(std::log(us / best) / span, 0.0, 1.0));
    const ImVec4 fast(0.20f, 0.70f, 0.30f, 1), mid(0.90f, 0.80f, 0.20f, 1), slow(0.85f, 0.22f, 0.18f, 1);
    const ImVec4& a = t < 0.5f ? fast : mid;
    const ImVec4& b = t < 0.5f ? mid : slow;
    const float u = t < 0.5f ? t * 2 : t * 2 - 1;
    return ImGui::ColorConvertFloat4ToU32(
        ImVec4(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u, 1));
}

std::string axis_label(int v) { return v >= 1024 ? "1k" : std::to_string(v); }

void heat_cell_tooltip(const BlockSweep& sweep, const Dim3& block, const std::optional<BlockTiming>& t) {
    const double best = sweep.fastest_first().front().median_us;
    ImGui::BeginTooltip();
    if (t)
        ui::Text("block %d x %d (%d threads): %.2f us median, %.2fx the fastest", block.x, block.y, block.x * block.y,
                 t->median_us, t->median_us / std::max(1e-9, best));
    else
        ui::Text("block %d x %d: %s", block.x, block.y, sweep.running() ? "not measured yet" : "not measured");
    ImGui::EndTooltip();
}

// Block x across, block y down, powers of two; only 32..1024 threads are candidates.
void heatmap(const BlockSweep& sweep) {
    const auto& results = sweep.fastest_first();
    const double best = results.front().median_us;
    double worst = best;
    std::optional<Dim3> fastest_shown; // the tutorial's 50x20 has no cell
    for (const BlockTiming& r : results)
        if (!is_tutorial(r.block)) {
            worst = std::max(worst, r.median_us);
            if (!fastest_shown) fastest_shown = r.block;
        }
    const ImGuiStyle& style = ImGui::GetStyle();
    const float label_w = ImGui::CalcTextSize("1024").x + style.ItemInnerSpacing.x;
    const float cell = std::floor(std::clamp((ImGui::GetContentRegionAvail().x - label_w) / kHeatSides, 12.0f, 30.0f));
    const float text_h = ImGui::GetTextLineHeight();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 grid(origin.x + label_w, origin.y + text_h + 2);
    ImDrawList* d = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    d->AddText(origin, text, "y\\x");
    for (int i = 0; i < kHeatSides; ++i) {
        const std::string v = axis_label(1 << i);
        const float w = ImGui::CalcTextSize(v.c_str()).x;
        d->AddText(ImVec2(grid.x + i * cell + (cell - w) / 2, origin.y), text, v.c_str());
        const std::string y = std::to_string(1 << i);
        d->AddText(ImVec2(grid.x - ImGui::CalcTextSize(y.c_str()).x - style.ItemInnerSpacing.x,
                          grid.y + i * cell + (cell - text_h) / 2),
                   text, y.c_str());
    }
    for (int row = 0; row < kHeatSides; ++row)
        for (int col = 0; col < kHeatSides; ++col) {
            const Dim3 block{1 << col, 1 << row, 1};
            if (block.x * block.y < 32 || block.x * block.y > 1024) continue;
            const ImVec2 a(grid.x + col * cell, grid.y + row * cell), b(a.x + cell - 1, a.y + cell - 1);
            ImGui::SetCursorScreenPos(a);
            ui::InvisibleButton(fmt::format("block {}##heat", shape_name(block)).c_str(), ImVec2(cell - 1, cell - 1));
            const auto t = timing_of(sweep, block);
            d->AddRectFilled(a, b, t ? time_colour(t->median_us, best, worst) : IM_COL32(60, 60, 66, 255));
            if (fastest_shown && fastest_shown->x == block.x && fastest_shown->y == block.y) {
                d->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(255, 255, 255, 255), 0, 0,
                           2.5f);
                d->AddCircleFilled(ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2), cell * 0.15f,
                                   IM_COL32(255, 255, 255, 255));
            }
            if (ImGui::IsItemHovered()) heat_cell_tooltip(sweep, block, t);
        }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, grid.y + kHeatSides * cell + style.ItemSpacing.y));
    ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[ImGuiCol_TextDisabled]);
    ui::TextWrapped(
        "median kernel time: green fastest, red slowest (or %.0fx the fastest); white: the fastest of them. "
        "Hover a cell for its figure.",
        kRedRatio);
    ImGui::PopStyleColor();
}

void results_table(const BlockSweep& sweep) {
    const auto& results = sweep.fastest_first();
    const double best = results.front().median_us;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("tune", 3, flags, ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("block");
    ImGui::TableSetupColumn("median us");
    ImGui::TableSetupColumn("x fastest");
    ImGui::TableHeadersRow();
    for (const BlockTiming& r : results) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ui::Text("%dx%d%s", r.block.x, r.block.y, is_tutorial(r.block) ? " (tutorial)" : "");
        ImGui::TableNextColumn();
        ui::Text("%.2f", r.median_us);
        ImGui::TableNextColumn();
        ui::Text("%.2f", r.median_us / std::max(1e-9, best));
    }
    ImGui::EndTable();
}

} // namespace

void tune_section(UiState& s, const PanelContext& ctx) {
    const BlockSweep* sweep = ctx.sweep;
    if (sweep && sweep->running())
        progress_row(ctx.requests, *sweep);
    else
        start_button(s, ctx.requests);
    if (!sweep) return;
    // Where a person looks when the sweep ends: the figures, the Apply button just below.
    if (std::exchange(s.tune_ended, false)) ImGui::SetScrollHereY(0.1f);
    measured_line(*sweep);
    if (sweep->fastest_first().empty()) {
        if (!sweep->running()) ui::TextColored(kWarn, "no block shape could run");
        return;
    }
    best_and_apply(s, ctx.messages, *sweep);
    heatmap(*sweep);
    results_table(*sweep);
}

std::string tuner_status(const BlockSweep* sweep) {
    if (!sweep) return {};
    const char* state = sweep->running() ? "running" : sweep->cancelled() ? "cancelled" : "done";
    std::string out = fmt::format("tuner: {}, {} / {} shapes", state, sweep->shapes_done(), sweep->shape_count());
    const auto& results = sweep->fastest_first();
    if (!results.empty())
        out += fmt::format("; fastest {} ({:.2f} us)", shape_name(results.front().block), results.front().median_us);
    out += "\n";
    if (sweep->backend() == Backend::Cpu) out += fmt::format("tuner: {}\n", kCpuTimingsWarning);
    if (results.empty()) return out;
    out += "tuner table:";
    for (const BlockTiming& r : results) out += fmt::format(" {} {:.2f}", shape_name(r.block), r.median_us);
    return out + "\n";
}

} // namespace kc
