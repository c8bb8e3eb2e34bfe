#include "app/record/recording.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "gpu/thread_of_pixel.h"

namespace kc {

namespace {

double lerp(double a, double b, double u) { return u >= 1 ? b : a + (b - a) * u; } // the end value exactly

// Applies sweep `s` at progress u (0..1) to the job; returns the caption's line for it.
std::string apply_sweep(const ParamSweep& s, double u, PaintJob& job, const RecordPlan& plan) {
    OpParams& p = job.params;
    if (s.name == "block") {
        job.launch.block = {int(std::lround(lerp(s.block_from.x, s.block_to.x, u))),
                            int(std::lround(lerp(s.block_from.y, s.block_to.y, u))), 1};
        return fmt::format("block {}", to_string(job.launch.block));
    }
    if (s.name == "zoom") { // geometric: every frame zooms by the same factor
        const double z = s.from * std::pow(s.to / s.from, u);
        p.scale = 3.0 / 800 / z;
        if (plan.center_to) {
            // The centre moves so that the end centre's point drifts into the middle smoothly.
            const double q = s.to == s.from ? u : (1 - s.from / z) / (1 - s.from / s.to);
            p.center_x = lerp(plan.job.params.center_x, plan.center_to->first, q);
            p.center_y = lerp(plan.job.params.center_y, plan.center_to->second, q);
        }
        return fmt::format("zoom {:.4g}x  centre ({:.6g}, {:.6g})", z, p.center_x, p.center_y);
    }
    const ParamSpec& spec = *find_param(s.name); // plan_error checked the name and both ends
    double v = lerp(s.from, s.to, u);
    if (spec.whole()) v = std::round(v / spec.multiple_of) * spec.multiple_of;
    spec.write(p, v);
    return spec.whole() ? fmt::format("{} = {}", s.name, int(v)) : fmt::format("{} = {:.3f}", s.name, v);
}

} // namespace

double step_rate(const RecordPlan& plan) {
    if (plan.blocks_per_second > 0) return plan.blocks_per_second;
    const long long blocks = resolved_grid(plan.job.launch, plan.job.params.width, plan.job.params.height).count();
    const double seconds = std::max(1.0, 0.9 * (plan.frames - 1)) / plan.fps * plan.clock.speed;
    return double(std::max(1LL, blocks)) / seconds;
}

long long step_blocks(const RecordPlan& plan, int n) {
    const double elapsed = double(n) * plan.clock.speed / plan.fps;
    // A hair over the product: frame n of 30 fps at 30 blocks a second paints n blocks, not n-1.
    const double painted = std::floor(plan.first_blocks + elapsed * step_rate(plan) + 1e-9);
    return (long long)std::clamp(painted, 0.0, 1e15); // plan_frame caps it at the frame's grid
}

RecordFrame plan_frame(const RecordPlan& plan, int n) {
    RecordFrame f;
    f.job = plan.job;
    f.seconds = plan.clock.at_frame(n, plan.fps, plan.start);
    f.job.params.seconds = float(f.seconds);
    const double u = plan.frames > 1 ? double(n) / (plan.frames - 1) : 1.0;
    std::vector<std::string> moving;
    for (const ParamSweep& s : plan.sweeps) moving.push_back(apply_sweep(s, u, f.job, plan));
    const OpInfo& op = op_registry()[f.job.op];
    const ResolvedLaunch resolved = resolve_launch(f.job, universal_limits());
    const LaunchConfig& l = resolved.launch;
    const Dim3& grid = resolved.grid;
    f.job.max_blocks = -1;
    if (plan.step && !op.custom && !op.user_code) {
        f.job.max_blocks = std::min(grid.count(), step_blocks(plan, n));
        moving.push_back(
            fmt::format("step mode: {} of {} blocks painted, in launch order", f.job.max_blocks, grid.count()));
    }
    f.caption.push_back(fmt::format("{}  |  view {}  |  block {}  grid {}  |  {}", op.name, view_name(f.job.view),
                                    to_string(l.block), to_string(grid), mapping_name(l.mapping)));
    if (!op.user_code) f.formula = mapping_formula(l, grid, f.job.params.width, f.job.params.height);
    if (op.user_code) moving.push_back(fmt::format("t = {:.3f} s", f.seconds));
    for (std::string& line : moving) f.caption.push_back(std::move(line));
    return f;
}

std::optional<std::string> plan_error(const RecordPlan& plan) {
    if (plan.frames < 1) return "a recording needs at least one frame";
    if (!(plan.fps > 0) || plan.fps > 240) return fmt::format("--fps {:g} is not from 1 to 240", plan.fps);
    for (const ParamSweep& s : plan.sweeps) {
        if (s.name == "block") continue;
        const ParamSpec* spec = find_param(s.name);
        const bool sweepable = spec && spec->kind != ParamKind::Bool && !spec->has_choices() &&
                               !s.name.starts_with("center") && s.name != "matmul-n";
        if (!sweepable)
            return fmt::format(
                "cannot sweep '{}': choose weight, cell, level, radius, iter, zoom, julia-re, julia-im or block",
                s.name);
        for (double v : {s.from, s.to})
            if (auto e = param_error(s.name, v)) return "--sweep " + *e;
    }
    for (int n = 0; n < plan.frames; ++n) {
        const RecordFrame f = plan_frame(plan, n);
        if (auto r = resolve_launch(f.job, universal_limits()); r.refusal)
            return fmt::format("frame {} (of {}): launch refused: {}", n, plan.frames, *r.refusal);
    }
    return std::nullopt;
}

std::optional<std::string> parse_sweep(const std::string& text, ParamSweep& out) {
    const auto eq = text.find('='), colon = text.find(':');
    if (eq == std::string::npos || colon == std::string::npos || colon < eq)
        return fmt::format("--sweep '{}' is not NAME=FROM:TO, e.g. weight=0:1 or block=8x8:64x16", text);
    out.name = text.substr(0, eq);
    const std::string from = text.substr(eq + 1, colon - eq - 1), to = text.substr(colon + 1);
    if (out.name == "block") {
        const auto a = parse_dim3(from), b = parse_dim3(to);
        if (!a || !b || a->z != 1 || b->z != 1)
            return fmt::format("--sweep '{}': the blocks must be XxY, e.g. block=8x8:64x16", text);
        out.block_from = *a, out.block_to = *b;
        return std::nullopt;
    }
    char* end = nullptr;
    out.from = std::strtod(from.c_str(), &end);
    const bool from_ok = !from.empty() && *end == '\0';
    out.to = std::strtod(to.c_str(), &end);
    if (!from_ok || to.empty() || *end != '\0')
        return fmt::format("--sweep '{}': FROM and TO must be numbers, e.g. weight=0:1", text);
    return std::nullopt;
}

} // namespace kc
