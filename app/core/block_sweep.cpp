#include "app/core/block_sweep.h"

#include <algorithm>

namespace kc {

namespace {

constexpr int kWarmupPaints = 5;

// What the sweep times: the op itself, whole, with an auto grid. Columns stays columns: 32x1
// against 1x32 is its lesson.
PaintJob measured_job(PaintJob job) {
    job.launch.auto_grid = true;
    if (!is_tiled(job.launch.mapping)) job.launch.mapping = Mapping::TwoD;
    job.view = View::Pixels;
    job.max_blocks = -1;
    return job;
}

} // namespace

std::vector<Dim3> sweep_candidates() {
    std::vector<Dim3> blocks{{50, 20, 1}};
    for (int x = 1; x <= 1024; x *= 2)
        for (int y = 1; x * y <= 1024; y *= 2)
            if (x * y >= 32) blocks.push_back({x, y, 1});
    return blocks;
}

BlockSweep::BlockSweep(FramePainter& painter, Canvas& canvas, PaintJob job, int reps, const SourceImages* sources)
    : painter_(painter), canvas_(canvas), sources_(sources), job_(measured_job(std::move(job))),
      backend_(painter.backend()), paints_per_shape_(reps + kWarmupPaints), candidates_(sweep_candidates()),
      times_before_(painter.times()) {}

bool BlockSweep::step(Budget budget) {
    if (finished_) return false;
    const auto started = std::chrono::steady_clock::now();
    if (paints_done_ == 0) {
        job_.launch.block = candidates_[next_];
        painter_.times().clear();
    }
    painter_.record_writers(false); // the inspector's record costs a write per pixel: not the op's time
    bool refused = false;
    do {
        refused = painter_.paint(job_, canvas_, sources_).has_value();
        painter_.collect_timings();
        ++paints_done_;
    } while (!refused && paints_done_ < paints_per_shape_ && std::chrono::steady_clock::now() - started < budget);
    if (refused || paints_done_ == paints_per_shape_) finish_shape(refused);
    return running();
}

void BlockSweep::finish_shape(bool refused) {
    glFinish();
    painter_.collect_timings(true);
    if (!refused && !painter_.times().kernel.empty())
        results_.push_back({candidates_[next_], painter_.times().kernel.median()});
    ++next_;
    paints_done_ = 0;
    if (next_ == candidates_.size()) end();
}

void BlockSweep::cancel() {
    if (finished_) return;
    cancelled_ = true;
    try {
        glFinish();
        painter_.collect_timings(true); // the shape in progress is dropped
    } catch (...) {
        end(); // stopped even so: a failing painter must not be swept again next frame
        throw;
    }
    end();
}

void BlockSweep::end() {
    std::stable_sort(results_.begin(), results_.end(), [](auto& a, auto& b) { return a.median_us < b.median_us; });
    painter_.times() = times_before_;
    finished_ = true;
}

std::vector<BlockTiming> sweep_blocks(FramePainter& painter, Canvas& canvas, PaintJob job, int reps,
                                      const std::function<void()>& on_step, const SourceImages* sources) {
    BlockSweep sweep(painter, canvas, std::move(job), reps, sources);
    while (sweep.step())
        if (on_step) on_step();
    if (on_step) on_step();
    return sweep.fastest_first();
}

} // namespace kc
