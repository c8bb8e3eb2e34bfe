#pragma once
// Side B of the window's A/B split: a FramePainter of its own (its own kernel, its own never-
// stalling event timers, its own cpu worker) painting a canvas of its own, on side A's backend
// and present path. Made when the split is first turned on; A's painter is not touched.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "app/ab/ab_state.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/io/source_images.h"

namespace kc {

class AbPainter {
public:
    // Paints side B (compiling its kernel first when it changed), then reads both sides' times
    // into ab.readout. `a` is side A's painter, which has painted this frame's A into `a_canvas`.
    void paint(AbState& ab, const PaintJob& a_job, const FramePainter& a, const Canvas& a_canvas,
               const SourceImages& sources, std::chrono::milliseconds wait);
    // With the diff on, compares the two canvases as shown every few frames (a read-back each,
    // which waits for the GPU: it is not in either side's kernel time) and updates the marks.
    void compare(AbState& ab, const Canvas& a_canvas);
    // Waits for B's cpu frame in flight, if any, and shows it (a script's save, a screenshot).
    void finish_painting();

    bool ready() const { return painter_ != nullptr; }
    const Canvas& canvas() const { return *canvas_; }
    const Canvas& marks() const { return *marks_; }
    FramePainter& painter() { return *painter_; }

private:
    void start(const FramePainter& a, const Canvas& a_canvas);
    void compile_if_changed(AbState& ab, const PaintJob& b_job);

    std::unique_ptr<FramePainter> painter_;
    std::unique_ptr<Canvas> canvas_, marks_; // B's picture, and the diff's marks (drawn additively)
    std::optional<std::tuple<std::string, KernelMode, Backend>> compiled_; // what B's painter last compiled
    int frames_to_compare_ = 0;
};

} // namespace kc
