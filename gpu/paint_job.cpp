#include "paint_job.h"

#include <algorithm>

#include "registry.h"

namespace kc {

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
    if (auto e = launch_error(job.launch, job.params.width, job.params.height, limits)) {
        plan.error = *e;
        return plan;
    }
    plan.grid = resolved_grid(job.launch, job.params.width, job.params.height);
    plan.clear_first = !coverage(job.launch, job.params.width, job.params.height).covers_all() ||
                       painting_blocks(job, plan.grid) < plan.grid.count();
    return plan;
}

long long painting_blocks(const PaintJob& job, const Dim3& grid) {
    return job.max_blocks < 0 ? grid.count() : std::min(job.max_blocks, grid.count());
}

} // namespace kc
