#include "gpu/paint_job.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpu/param_limits.h"
#include "gpu/registry.h"

namespace kc {

std::optional<std::string> params_error(const OpParams& p) {
    for (const ParamSpec& s : kParams)
        if (auto e = param_error(s.name, param_value(s, p))) return e;
    return std::nullopt;
}

std::optional<std::string> variant_error(const OpInfo& op, int variant) {
    if (op.variants < 2 || variant < op.variants) return std::nullopt;
    const ParamSpec& s = *find_param("variant");
    std::string names;
    for (int v = 0; v < op.variants; ++v) names += (v == 0 ? "" : " or ") + std::string(s.choices[v]);
    return fmt::format("variant {}: {} has {} kernels, {}", s.choices[variant], op.name, op.variants, names);
}

namespace {
// Why the job cannot run whatever its launch: the canvas size, the checkerboard cell, a parameter.
std::optional<std::string> job_error(const PaintJob& job) {
    if (auto e = canvas_size_error(job.params.width, job.params.height)) return e;
    if (job.params.cell <= 0) return "checkerboard cell size must be at least 1 pixel";
    if (auto e = params_error(job.params)) return e;
    return variant_error(op_registry()[job.op], job.params.variant);
}

std::optional<std::string> limits_error(const LaunchConfig& launch, int w, int h, const DeviceLimits& limits) {
    if (auto e = launch_error(launch, w, h, universal_limits())) return e;
    return launch_error(launch, w, h, limits);
}
} // namespace

ResolvedLaunch resolve_launch(const PaintJob& job, const DeviceLimits& limits) {
    ResolvedLaunch r;
    if (job.op < 0 || job.op >= static_cast<int>(op_registry().size())) {
        r.refusal = "unknown operation index " + std::to_string(job.op);
        return r;
    }
    const OpInfo& op = op_registry()[job.op];
    const int w = job.params.width, h = job.params.height;
    r.launch = effective_launch(job);
    r.grid = resolved_grid(r.launch, w, h);
    r.own = op.custom;
    // Custom operations launch their own blocks and grids, legal by construction.
    if (!op.custom) r.launch_refusal = limits_error(r.launch, w, h, limits);
    const auto size_error = canvas_size_error(w, h);
    if (!r.launch_refusal && !size_error) r.coverage = coverage(r.launch, w, h);
    r.refusal = job_error(job);
    if (!r.refusal) r.refusal = r.launch_refusal;
    if (r.refusal || op.custom) return r;
    if (op.user_code) {
        // Which pixels the user's code writes is unknown before it runs: hatch them all first, so
        // what no thread writes shows as uncovered instead of last frame's picture.
        r.clear_first = true;
        if (job.view != View::Pixels && r.grid.count() * job.launch.block.count() > (long long)kMaxRecordedThreads)
            r.refusal = fmt::format("the views of your kernel tell apart at most {} threads, and grid {} of blocks {} "
                                    "launches {}: choose the pixels view, or a smaller grid",
                                    kMaxRecordedThreads, to_string(r.grid), to_string(job.launch.block),
                                    r.grid.count() * job.launch.block.count());
        return r;
    }
    if (job.launch.pixels_per_thread == 4 && job.view != View::Pixels) {
        r.refusal = "4 pixels per thread paints the op's pixels only: choose the pixels view, or 1 pixel per thread";
        return r;
    }
    r.clear_first = !r.coverage.covers_all() || painting_blocks(job, r.grid) < r.grid.count();
    return r;
}

LaunchConfig effective_launch(const PaintJob& job) {
    LaunchConfig launch = job.launch;
    if (job.op < 0 || job.op >= static_cast<int>(op_registry().size())) return launch;
    const OpInfo& op = op_registry()[job.op];
    if (op.custom) return op.own_launch(job.params);
    if (op.user_code) {
        launch.mapping = Mapping::TwoD;
        launch.pixels_per_thread = 1;
    }
    return launch;
}

long long painting_blocks(const PaintJob& job, const Dim3& grid) {
    return job.max_blocks < 0 ? grid.count() : std::min(job.max_blocks, grid.count());
}

} // namespace kc
