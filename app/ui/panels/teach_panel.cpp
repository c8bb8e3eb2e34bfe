#include "app/ui/panels/teach_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <utility>

#include "app/core/gpu_list.h"
#include "app/ui/panel_text.h"
#include "app/ui/widgets.h"
#include "gpu/device_figures.h"
#include "gpu/launch_figures.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"
#include "render/gl_context.h"

namespace kc {

namespace {

const ImVec4& kWarn = kWarnColour;
const ImVec4& kBad = kErrorColour;

// The legend's second column, as far in as 14 characters of the (scaled) font.
float legend_column() { return ImGui::GetFontSize() * 14.0f; }

ImVec4 to_imvec(Pixel p) { return ImVec4(p.r / 255.0f, p.g / 255.0f, p.b / 255.0f, 1.0f); }

// Wrapped coloured text (ImGui's TextColored does not wrap).
template <class... Args>
void coloured(const ImVec4& colour, fmt::format_string<Args...> format, Args&&... args) {
    wrapped_text(colour, fmt::format(format, std::forward<Args>(args)...));
}

void swatch(const char* id, Pixel p, const std::string& label) {
    ui::ColorButton(id, to_imvec(p), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                    ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    wrapped(label);
}

// The hatch itself, drawn small: what uncovered pixels look like.
void hatch_swatch(const std::string& label) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* d = ImGui::GetWindowDrawList();
    const int side = static_cast<int>(ImGui::GetTextLineHeight()); // the hatch at the canvas' own scale, 1:1
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            const Pixel p = uncovered_pixel(x, y);
            d->AddRectFilled(ImVec2(at.x + x, at.y + y), ImVec2(at.x + x + 1, at.y + y + 1),
                             IM_COL32(p.r, p.g, p.b, 255));
        }
    ImGui::Dummy(ImVec2(float(side), float(side)));
    ImGui::SameLine();
    wrapped(label);
}

ThreadCoords coords_of(const Dim3& block, const Dim3& grid, int bx, int by, int tx, int ty) {
    return ThreadCoords{unsigned(bx),      unsigned(by),      0,
                        unsigned(tx),      unsigned(ty),      0,
                        unsigned(block.x), unsigned(block.y), unsigned(block.z),
                        unsigned(grid.x),  unsigned(grid.y),  unsigned(grid.z)};
}

// One legend per view: what the colours mean, and a few swatches of the launch's own threads.
// `say` writes the prose (nothing in the recorder's compact legend).
using Say = void (*)(std::string_view);

void block_legend(const PaintJob& job, const Dim3& grid, Say say) {
    const Dim3& b = job.launch.block;
    const Mapping m = job.launch.mapping;
    const unsigned width = static_cast<unsigned>(job.params.width);
    if (is_tiled(m))
        say("One colour per block. Hue class (blockIdx.x + 3*blockIdx.y) mod 6, so all eight neighbours differ; odd "
            "classes darker.");
    else
        say(fmt::format("One colour per block. Hue class = block number mod {}, chosen so blocks whose pixels touch "
                        "never share it.",
                        block_colour_classes(m, 1ULL * b.x * b.y, 1ULL * grid.x * grid.y, width)));
    const int shown = static_cast<int>(std::min<long long>(6, 1LL * grid.x * grid.y));
    for (int i = 0; i < shown; ++i) {
        const int bx = i % grid.x, by = i / grid.x;
        swatch(fmt::format("##b{}", i).c_str(), view_colour(View::Block, coords_of(b, grid, bx, by, 0, 0), 0, m, width),
               fmt::format("block ({}, {})", bx, by));
        if (i % 2 == 0 && i + 1 < shown) ImGui::SameLine(legend_column());
    }
}

void thread_legend(const Dim3& b, const Dim3& grid, Say say) {
    say("Red = threadIdx.x / (blockDim.x-1), green = threadIdx.y / (blockDim.y-1): each block repeats the same ramp.");
    swatch("##t0", view_colour(View::Thread, coords_of(b, grid, 0, 0, 0, 0), 0), "threadIdx (0, 0)");
    ImGui::SameLine(legend_column());
    swatch("##t1", view_colour(View::Thread, coords_of(b, grid, 0, 0, b.x - 1, 0), 0), fmt::format("({}, 0)", b.x - 1));
    swatch("##t2", view_colour(View::Thread, coords_of(b, grid, 0, 0, 0, b.y - 1), 0), fmt::format("(0, {})", b.y - 1));
    ImGui::SameLine(legend_column());
    swatch("##t3", view_colour(View::Thread, coords_of(b, grid, 0, 0, b.x - 1, b.y - 1), 0),
           fmt::format("({}, {})", b.x - 1, b.y - 1));
}

void warp_legend(const Dim3& b, Say say) {
    say("warp = (threadIdx.y*blockDim.x + threadIdx.x) / 32 within the block; 8 colours, warps w and w+1, w+2 far "
        "apart.");
    const int warps = static_cast<int>(std::min<long long>(8, warp_figures(b).warps_per_block));
    for (int w = 0; w < warps; ++w) {
        swatch(fmt::format("##w{}", w).c_str(), warp_colour(unsigned(w)), fmt::format("warp {}", w));
        if (w % 2 == 0 && w + 1 < warps) ImGui::SameLine(legend_column());
    }
}

void lane_legend(Say say) {
    say("lane = flattened threadIdx % 32: teal for lane 0 through to pink for lane 31.");
    for (int l : {0, 8, 16, 24, 31}) {
        swatch(fmt::format("##l{}", l).c_str(), lane_colour(unsigned(l)), fmt::format("{}", l));
        if (l != 31) ImGui::SameLine();
    }
}

void linear_legend(const Dim3& b, const Dim3& grid, Say say) {
    const long long total = 1LL * b.x * b.y * grid.x * grid.y;
    say(fmt::format("Brightness = the thread's linear index (blockIdx.y*gridDim.x + blockIdx.x)*threads per block + "
                    "thread in block, over all {} threads.",
                    total));
    const auto at = [&](long long index) {
        const long long per_block = 1LL * b.x * b.y, blk = index / per_block, tib = index % per_block;
        return view_colour(View::Linear,
                           coords_of(b, grid, int(blk % grid.x), int(blk / grid.x), int(tib % b.x), int(tib / b.x)), 0);
    };
    swatch("##i0", at(0), "first");
    ImGui::SameLine();
    swatch("##i1", at(total / 2), "middle");
    ImGui::SameLine();
    swatch("##i2", at(total - 1), "last thread");
}

void sm_legend(Say say) {
    say("One colour per SM that ran the block (%smid); on the CPU backend, per emulator worker. Hover a pixel to read "
        "its number.");
    say("Which SM or worker takes a block is decided anew at every launch, so the colours change from frame to frame "
        "(on the CPU backend most of all), even while time is paused: no order is promised.");
    for (unsigned sm = 0; sm < 4; ++sm) {
        swatch(fmt::format("##s{}", sm).c_str(), view_colour(View::Sm, ThreadCoords{}, sm), fmt::format("SM {}", sm));
        if (sm != 3) ImGui::SameLine();
    }
}

void start_legend(Say say) {
    say("Colour = when the pixel's block started, from the launch's first start (deep blue) to its last "
        "(yellow): the SM timeline's bars in the same colours. Blocks of one wave share a colour; the tail's are "
        "yellow. Only the per-pixel ops record start times: for custom ops and your kernel this view means nothing.");
    const std::pair<float, const char*> stops[] = {{0.0f, "first"}, {0.5f, "middle"}, {1.0f, "last start"}};
    for (const auto& [f, name] : stops) {
        swatch(fmt::format("##st{}", name).c_str(), start_ramp_colour(f), name);
        if (f < 1.0f) ImGui::SameLine();
    }
}

void legend(const PaintJob& job, const Dim3& grid, bool prose = true) {
    const Say say = prose ? Say([](std::string_view text) { kc::wrapped(text); }) : Say([](std::string_view) {});
    const Dim3& b = job.launch.block;
    switch (job.view) {
    case View::Pixels:
        say("The operation's output. Pick another view to see which thread wrote each pixel.");
        break;
    case View::Block:
        block_legend(job, grid, say);
        break;
    case View::Thread:
        thread_legend(b, grid, say);
        break;
    case View::Warp:
        warp_legend(b, say);
        break;
    case View::Lane:
        lane_legend(say);
        break;
    case View::Linear:
        linear_legend(b, grid, say);
        break;
    case View::Sm:
        sm_legend(say);
        break;
    case View::Start:
        start_legend(say);
        break;
    }
    hatch_swatch("hatched: no thread writes this pixel");
    swatch("##rep", Pixel{40, 40, 230, 255}, "red tint: more than one thread writes it");
}

// Coalescing: how many cache lines one store instruction of a warp touches under this mapping.
void warp_store_line(const ResolvedLaunch& r, int w, int h) {
    if (r.launch_refusal) return;
    const LaunchConfig& l = r.launch;
    const WarpStores ws = first_warp_stores(l, w, h);
    if (ws.lanes == 0) return;
    if (ws.cache_lines <= ws.ideal_lines) {
        wrapped_disabled(fmt::format("warp 0's {} stores: {} cache line{} of {} B (coalesced)", ws.lanes,
                                     ws.cache_lines, ws.cache_lines == 1 ? "" : "s", kCacheLineBytes));
        return;
    }
    if (ws.rows == ws.lanes)
        coloured(kWarn, "a warp's {} stores are {} rows apart ({} pixels): {} cache lines instead of {} (uncoalesced)",
                 ws.lanes, ws.rows, w, ws.cache_lines, ws.ideal_lines);
    else
        coloured(kWarn, "warp 0's {} stores span {} rows: {} cache lines of {} B where {} would do", ws.lanes, ws.rows,
                 ws.cache_lines, kCacheLineBytes, ws.ideal_lines);
}

// Step mode runs every frame, whether or not its controls are shown: the blocks painted follow
// the animation clock, from the time step mode began.
void advance_step(UiState& s, long long blocks) {
    TeachState& t = s.teach;
    if (!t.stepping) {
        s.job.max_blocks = -1;
        t.step_started = false;
        return;
    }
    const double now = s.clock.seconds, rate = std::max(0.001f, t.blocks_per_second);
    if (!t.step_started) t.step_origin = now, t.step_started = true, t.step_rate = t.blocks_per_second;
    if (t.step_rate != t.blocks_per_second) // a new pace keeps what is painted
        t.step_origin = now - t.step_blocks / rate, t.step_rate = t.blocks_per_second;
    if (t.step_request) t.step_origin = now - *std::exchange(t.step_request, std::nullopt) / rate;
    // t scrubbed (or looped) back past block 0: block 0 is here now, so Play paints at once.
    t.step_origin = std::min(t.step_origin, now);
    // An illegal grid may count < 0.
    t.step_blocks = std::clamp((now - t.step_origin) * rate, 0.0, double(std::max(0LL, blocks)));
    s.job.max_blocks = static_cast<long long>(std::floor(t.step_blocks + 1e-9));
}

void step_controls(UiState& s, long long blocks) {
    TeachState& t = s.teach;
    ui::Checkbox("Step through blocks", &t.stepping);
    ImGui::SameLine();
    ui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Paints only the first N blocks in launch order (blockIdx.x fastest, then y, then z);\n"
                          "the others return at once. Real GPUs run many blocks at a time in no promised order.\n"
                          "N follows the Time section's clock: pause, single frames and the time slider move it.");
    if (!t.stepping) return;
    ui::SliderFloat("Blocks / second", &t.blocks_per_second, 0.5f, 2000.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
    if (ui::Button(s.clock.paused ? "Run" : "Pause")) s.clock.paused = !s.clock.paused;
    ImGui::SameLine();
    if (ui::Button("+1 block")) t.step_request = std::floor(t.step_blocks + 1e-9) + 1, s.clock.paused = true;
    ImGui::SameLine();
    if (ui::Button("Restart")) t.step_request = 0.0, s.clock.paused = false;
    ui::Text("%lld of %lld blocks painted", std::min(static_cast<long long>(t.step_blocks + 1e-9), blocks), blocks);
}

} // namespace

void view_legend(const PaintJob& job, const Dim3& grid, bool prose) { legend(job, grid, prose); }

void indexing_section(UiState& s, const PanelContext&) {
    // What the kernels launch: a custom op's own block, grid and mapping, else the panel's.
    const LaunchConfig& l = s.resolved.launch;
    const bool own = s.resolved.own;
    const int w = s.job.params.width, h = s.job.params.height;
    const Dim3& grid = s.resolved.grid;
    wrapped_disabled(fmt::format("{}apping {}, block {}, grid {}:", own ? "The op's own launch: m" : "M",
                                 mapping_name(l.mapping), to_string(l.block), to_string(grid)));
    code_lines(mapping_formula(l, grid, w, h));
    warp_store_line(s.resolved, w, h);
    if (l.block.z > 1 || grid.z > 1)
        coloured(kWarn, "threadIdx.z and blockIdx.z take no part: each z layer writes the same pixels again.");

    if (const auto& e = s.resolved.launch_refusal) {
        coloured(kBad, "{}", *e); // the counts and the legend need a legal launch
        return;
    }
    const Coverage& c = s.resolved.coverage;
    ImGui::Separator();
    wrapped(fmt::format("{} threads, {} pixels, {} covered", c.threads, c.pixels, c.covered_pixels));
    if (!c.covers_all()) coloured(kWarn, "{} pixels no thread writes (hatched)", c.pixels - c.covered_pixels);
    if (c.multi_written_pixels > 0)
        coloured(kWarn, "{} pixels written by more than one thread ({} extra writes; tinted red)",
                 c.multi_written_pixels, c.repeated_writes);
    if (c.threads > c.covered_pixels && c.multi_written_pixels == 0)
        wrapped_disabled(fmt::format("{} threads find no pixel and return", c.threads - c.covered_pixels));

    ImGui::Separator();
    if (own) {
        wrapped_disabled("The views and step mode follow the panel's per-pixel launch; this op paints its own pixels. "
                         "The inspector follows the launch above.");
    } else {
        ui::Text("Legend: %s view", std::string(view_name(s.job.view)).c_str());
        legend(s.job, grid);
        ImGui::Separator();
    }
    ui::Checkbox("Inspect on hover", &s.teach.inspector);
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize("Block outlines").x);
    ui::Checkbox("Block outlines", &s.teach.block_outlines);
    ui::Checkbox("Tint pixels written more than once", &s.teach.flag_repeats);
    if (!own) step_controls(s, grid.count());
}

void device_section(const UiState& s, const PanelContext& ctx) {
    const DeviceInfo* d = ctx.painter.device_info();
    const LaunchConfig& l = s.resolved.launch;
    const bool own = s.resolved.own;
    const Dim3& grid = s.resolved.grid;
    for (const std::string& line :
         device_gpu_lines(cuda_gpu_list().gpus, ctx.painter.gl_gpus(), ctx.painter.cuda_device(), gl_renderer_name()))
        wrapped(line);
    ImGui::Separator();
    if (d) {
        wrapped(fmt::format("{} (device {}), compute capability {}.{}", d->name, d->ordinal, d->cc_major, d->cc_minor));
        wrapped(
            fmt::format("{} SMs, warp size {}, {} threads per SM", d->sm_count, d->warp_size, d->max_threads_per_sm));
        wrapped(fmt::format("Max {} threads per block; block {}, grid {}x{}x{}", d->limits.max_threads_per_block,
                            to_string(d->limits.max_block), d->limits.max_grid_x, d->limits.max_grid_y,
                            d->limits.max_grid_z));
        wrapped(fmt::format("Shared memory {} KiB per block, {} KiB per SM", d->shared_mem_per_block / 1024,
                            d->shared_mem_per_sm / 1024));
        wrapped(fmt::format("Memory {} MHz x {}-bit bus (x2, DDR) = {:.0f} GB/s peak", d->memory_clock_khz / 1000,
                            d->memory_bus_bits, d->peak_bandwidth_gbs()));
    } else {
        // Why there is none is said once, at the top of the panel.
        wrapped("No CUDA device (see the top of the panel). Limits every CUDA GPU shares: 1024 threads per block, "
                "block 1024x1024x64, grid 2^31-1 x 65535 x 65535, warp 32.");
    }
    if (const auto& e = s.resolved.launch_refusal) { // against the painting backend's limits
        coloured(kBad, "This launch breaks a limit: {}", *e);
        return;
    }
    ImGui::Separator();
    const int warp = d ? d->warp_size : 32;
    const WarpFigures wf = warp_figures(l.block, warp);
    wrapped(
        fmt::format("Block {}: {} threads = {} warps", to_string(l.block), wf.threads_per_block, wf.warps_per_block));
    if (wf.idle_lanes_last_warp > 0)
        coloured(kWarn, "last warp has {} idle lanes of {} ({:.1f}% of the block's lanes idle)",
                 wf.idle_lanes_last_warp, warp, 100.0 * wf.idle_lanes_last_warp / double(wf.warps_per_block * warp));
    wrapped(fmt::format("Grid {}: {} blocks", to_string(grid), grid.count()));
    if (own) {
        wrapped_disabled("Occupancy is computed for kcanvas' per-pixel kernel, not for this op's own kernels.");
        return;
    }
    const auto o = device_occupancy(d, s.job.op, l.block, grid);
    if (!o) {
        wrapped_disabled("Resident blocks per SM, occupancy and waves need a CUDA device (the occupancy API).");
        return;
    }
    wrapped(fmt::format("{} blocks resident per SM = {} of {} warps: occupancy {:.0f}%", o->blocks_per_sm,
                        o->resident_warps_per_sm, o->max_warps_per_sm, 100.0 * o->occupancy));
    wrapped(fmt::format("{} blocks per wave ({} SMs): {} wave{}", o->blocks_per_wave, d->sm_count, o->waves(),
                        o->waves() == 1 ? "" : "s"));
    if (o->tail_blocks > 0)
        coloured(kWarn, "last wave: {} blocks, {:.0f}% of the GPU's block slots busy", o->tail_blocks,
                 100.0 * o->tail_fill());
}

// The user's kernel maps threads to pixels in its own code: in checked mode its writer record says
// which thread wrote each pixel, so the views, the inspector, the marks and step mode follow it.
void user_code_indexing_section(UiState& s) {
    const Dim3& grid = s.resolved.grid;
    const long long threads = grid.count() * s.job.launch.block.count();
    wrapped(fmt::format("Grid {} x block {} = {} threads", to_string(grid), to_string(s.job.launch.block), threads));
    ui::Text("for %lld pixels", 1LL * s.job.params.width * s.job.params.height);
    if (threads < 1LL * s.job.params.width * s.job.params.height)
        coloured(kWarn, "fewer threads than pixels: with one pixel per thread, some stay hatched");
    ImGui::Separator();
    if (s.kernel.ran_mode == KernelMode::Raw) {
        coloured(kWarn, "Your kernel runs in raw mode: the views, the inspector and step mode need checked mode "
                        "(Your kernel, Mode: checked).");
        s.teach.stepping = false;
        return;
    }
    wrapped_disabled("Your code decides which pixel each thread paints; checked mode records which thread wrote "
                     "each one, so the views below show your kernel's threads.");
    ui::Text("Legend: %s view", std::string(view_name(s.job.view)).c_str());
    legend(s.job, grid);
    ImGui::Separator();
    ui::Checkbox("Inspect on hover", &s.teach.inspector);
    ui::Checkbox("Block edges", &s.teach.block_outlines);
    ui::Checkbox("Tint pixels written more than once", &s.teach.flag_repeats);
    step_controls(s, grid.count());
}

void teaching_sections(UiState& s, const PanelContext& ctx) {
    if (op_registry()[s.job.op].user_code) {
        if (s.kernel.ran_mode != KernelMode::Raw) advance_step(s, s.resolved.grid.count());
        if (ui::CollapsingHeader("Indexing", ImGuiTreeNodeFlags_DefaultOpen)) user_code_indexing_section(s);
        if (ui::CollapsingHeader("Device")) device_section(s, ctx);
        s.teach.section_requests.clear();
        return;
    }
    if (op_registry()[s.job.op].custom) s.teach.stepping = false; // its own kernels paint every block
    advance_step(s, s.resolved.grid.count());
    auto header = [&](const char* name, const char* script_name, ImGuiTreeNodeFlags flags) {
        for (const std::string& request : s.teach.section_requests) {
            if (request == script_name) ImGui::SetNextItemOpen(true);
            if (request == std::string("-") + script_name) ImGui::SetNextItemOpen(false);
        }
        return ui::CollapsingHeader(name, flags);
    };
    if (header("Indexing", "indexing", ImGuiTreeNodeFlags_DefaultOpen)) indexing_section(s, ctx);
    if (header("Device", "device", 0)) device_section(s, ctx);
    s.teach.section_requests.clear();
}

} // namespace kc
