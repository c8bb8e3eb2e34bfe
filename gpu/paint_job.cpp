#include "paint_job.h"

#include <algorithm>

#include "ops/op_list.h"
#include "registry.h"

namespace kc {

std::optional<std::string> params_error(const OpParams& p) {
    if (p.level < 0 || p.level > 256) return "threshold level must be 0..256";
    if (p.radius < 0 || p.radius > kMaxBlurRadius)
        return "blur radius must be 0.." + std::to_string(kMaxBlurRadius) + " (the tiled kernel's shared-memory tile)";
    if (p.variant < 0 || p.variant > 1) return "variant must be 0 (naive) or 1 (tiled)";
    if (p.max_iter < 1 || p.max_iter > 100000) return "iterations must be 1..100000";
    if (!(p.scale > 0.0) || !(p.scale < 1.0)) return "fractal scale must be in (0, 1) plane units per pixel";
    if (p.matmul_n < kMatmulTile || p.matmul_n > 4096 || p.matmul_n % kMatmulTile != 0)
        return "matmul N must be a multiple of 16 in 16..4096";
    return std::nullopt;
}

PaintPlan plan_paint(const PaintJob& job, const DeviceLimits& limits) {
    PaintPlan plan;
    if (job.op < 0 || job.op >= static_cast<int>(op_registry().size())) {
        plan.error = "unknown operation index " + std::to_string(job.op);
        return plan;
    }
    if (auto e = canvas_size_error(job.params.width, job.params.height)) {
        plan.error = *e;
        return plan;
    }
    if (job.params.cell <= 0) {
        plan.error = "checkerboard cell size must be at least 1 pixel";
        return plan;
    }
    if (auto e = params_error(job.params)) {
        plan.error = *e;
        return plan;
    }
    if (op_registry()[job.op].custom) {
        // Custom operations launch their own blocks and grids; the panel's launch does not apply.
        plan.grid = resolved_grid(effective_launch(job), job.params.width, job.params.height);
        return plan;
    }
    const LaunchConfig launch = effective_launch(job);
    if (auto e = launch_error(launch, job.params.width, job.params.height, limits)) {
        plan.error = *e;
        return plan;
    }
    if (op_registry()[job.op].user_code) {
        // Which pixels the user's code writes is unknown before it runs: hatch them all first, so
        // what no thread writes shows as uncovered instead of last frame's picture.
        plan.grid = resolved_grid(launch, job.params.width, job.params.height);
        plan.clear_first = true;
        return plan;
    }
    if (job.launch.pixels_per_thread == 4 && job.view != View::Pixels) {
        plan.error = "4 pixels per thread paints the op's pixels only: choose the pixels view, or 1 pixel per thread";
        return plan;
    }
    plan.grid = resolved_grid(job.launch, job.params.width, job.params.height);
    plan.clear_first = !coverage(job.launch, job.params.width, job.params.height).covers_all() ||
                       painting_blocks(job, plan.grid) < plan.grid.count();
    return plan;
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
