#pragma once
// The canvas overlay: the inspector's tooltip and block outline, every block's boundary, the tint
// over pixels that several threads write, a refused launch's banner. It only draws, from a small
// input: the frame loop's paint step (or the recorder) decides what the painter records and reads
// the inspected pixel after painting, so GPU work and a lost CUDA context stay in one place.
#include <optional>
#include <string_view>

#include "app/core/canvas_view.h"
#include "app/core/teach_state.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"
#include "render/canvas.h"
#include "render/frame_painter.h"

namespace kc {

// What the paint step read of the inspected pixel once the frame was painted.
struct InspectedPixel {
    CanvasPixel at;
    Pixel value;                // as shown
    std::optional<unsigned> sm; // the SM (or the emulator's worker) that wrote it; none for custom ops
    // The user's kernel: its writer record's word for the pixel (gpu/kernel_check.h); none in raw mode.
    std::optional<unsigned> record_word;
};

struct OverlayInput {
    const PaintJob& job;
    const ResolvedLaunch& resolved; // the launch this frame painted (a custom op's own, else the panel's)
    const TeachState& teach;        // the overlays that are on
    const CanvasView& view;         // where the canvas is on the screen
    int canvas_width, canvas_height;
    std::string_view refusal;                // why the frame's launch was refused; empty: it ran
    std::optional<InspectedPixel> inspected; // none: no inspector this frame
    bool cpu_backend;
    std::optional<long long> timeline_block = std::nullopt; // the SM timeline's hovered bar: outlined
};

// Whether the overlays describe this canvas: not while its size differs from the job's. For the
// user's kernel, which maps threads to pixels in its own code, the inspector reads the writer record
// and the painter's colour pass draws the tint and the block edges (gpu/kernel_check.h).
bool overlays_apply(const PaintJob& job, int canvas_width, int canvas_height);

// The pixel the inspector looks at, decided before painting (so the painter records its writer):
// the pinned one (scripts, presets), else the one under the mouse where no window has it.
// Reads ImGui's input of the last frame; none when the inspector is off or the launch is illegal.
std::optional<CanvasPixel> pixel_to_inspect(const PaintJob& job, const ResolvedLaunch& resolved,
                                            const TeachState& teach, const CanvasView& view, int canvas_width,
                                            int canvas_height);

// After painting: the pixel's value and the SM that wrote it (a CUDA error propagates).
InspectedPixel probe_pixel(FramePainter& painter, const Canvas& canvas, const PaintJob& job,
                           const ResolvedLaunch& resolved, CanvasPixel at);

// Draws over the canvas with ImGui's background draw list; call between NewFrame and Render.
void draw_canvas_overlay(const OverlayInput& in);

} // namespace kc
