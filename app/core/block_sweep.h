#pragma once
// The block tuner's measurement: one op timed with every block shape worth trying. A BlockSweep
// advances in slices, so a window can paint and answer between them (the panel's "Find the
// fastest block"); sweep_blocks() runs one to the end (`kcanvas bench --sweep-blocks`).
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "gpu/paint_job.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/io/source_images.h"

namespace kc {

// One block shape's kernel time.
struct BlockTiming {
    Dim3 block;
    double median_us = 0;
};

// The shapes worth trying: the tutorial's 50x20, then the powers of two with 32..1024 threads
// (x outer, y inner).
std::vector<Dim3> sweep_candidates();

// Times `job` with every candidate, `reps` paints each after 5 warm-up paints, with an auto grid,
// the job's mapping if it is 2d or columns (2d otherwise), the pixels view and no step limit.
// Blocks the device refuses are skipped. The painter's timings are its own again once the sweep
// ends or is cancelled; the canvas holds the last shape's picture until the next paint.
class BlockSweep {
public:
    using Budget = std::chrono::steady_clock::duration;
    // `painter`, `canvas` and `sources` (optional input images) must outlive the sweep.
    BlockSweep(FramePainter& painter, Canvas& canvas, PaintJob job, int reps, const SourceImages* sources = nullptr);

    // Paints the shape in progress until it is measured or `budget` has passed (at least one
    // paint each call). Returns whether shapes remain.
    bool step(Budget budget = Budget::max());
    void cancel(); // stops where it is; the shapes measured so far stay

    bool running() const { return !finished_; }
    bool cancelled() const { return cancelled_; }
    std::size_t shapes_done() const { return next_; }
    std::size_t shape_count() const { return candidates_.size(); }
    // The measured shapes, fastest first (ties in candidate order).
    const std::vector<BlockTiming>& fastest_first() const { return results_; }
    // The job as measured: its op, canvas size and mapping (block: the shape in progress).
    const PaintJob& job() const { return job_; }
    Backend backend() const { return backend_; }

private:
    void finish_shape(bool refused);
    void end();

    FramePainter& painter_;
    Canvas& canvas_;
    const SourceImages* sources_;
    PaintJob job_;
    Backend backend_;
    int paints_per_shape_;
    std::vector<Dim3> candidates_;
    std::size_t next_ = 0; // the shape in progress
    int paints_done_ = 0;  // of the shape in progress
    std::vector<BlockTiming> results_;
    StageTimes times_before_; // the painter's timings of the user's frames, given back at the end
    bool finished_ = false, cancelled_ = false;
};

// Runs a whole sweep; fastest first. `on_step` runs after each block shape (the watchdog counts
// it as progress).
// `sources`: the input images the ops read (null: the built-in gradient and checkerboard).
std::vector<BlockTiming> sweep_blocks(FramePainter& painter, Canvas& canvas, PaintJob job, int reps,
                                      const std::function<void()>& on_step = {}, const SourceImages* sources = nullptr);

} // namespace kc
