#include "paint_job.h"

#include <algorithm>

#include "param_limits.h"
#include "registry.h"

namespace kc {

std::optional<std::string> params_error(const OpParams& p) {
    for (const ParamSpec& s : kParams)
        if (auto e = param_error(s.name, param_value(s, p))) return e;
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
