#pragma once
// Renders a recording's frames offscreen: the painter paints frame n's job into a canvas of the
// recording's size, and the overlays the window draws over its canvas (outlines, tint, inspector,
// legend, caption) are drawn by Dear ImGui into a framebuffer of the same size, in an ImGui
// context of the renderer's own, then laid over the canvas pixels. Needs a current GL context.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/ab_split.h"
#include "app/record/recorder.h"
#include "app/record/recording.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/io/source_images.h"

struct ImGuiContext;

namespace kc {

class RecordRenderer {
public:
    RecordRenderer(FramePainter& painter, int width, int height);
    ~RecordRenderer();
    RecordRenderer(const RecordRenderer&) = delete;
    RecordRenderer& operator=(const RecordRenderer&) = delete;

    // Frame `f` as width*height pixels, top row first; or why it could not be painted.
    std::optional<std::string> render(const RecordFrame& f, const RecordOverlays& overlays, const SourceImages* sources,
                                      std::vector<Pixel>& out);

private:
    struct Overlay;
    FramePainter& painter_;
    Canvas canvas_;
    std::unique_ptr<Overlay> overlay_; // made at the first frame with overlays
};

// Side B's overlays in a recording of the split: A's outlines and tint (they describe B's own
// launch on its side); the caption, legend and inspector are A's alone.
RecordOverlays side_b_overlays(const RecordOverlays& a);

// A frame of the A/B split: A's picture by `a`, B's by `b` (the same frame: its time, on B's op
// and launch), put together as the window shows them (split_picture.h), differing pixels marked.
std::optional<std::string> render_split_frame(const AbSplit& split, const RecordFrame& f, const Recorder::Render& a,
                                              const Recorder::Render& b, std::vector<Pixel>& out);

// Lays ImGui's output (premultiplied by its blending onto transparent black) over `canvas`.
void composite_over(std::vector<Pixel>& canvas, const std::vector<Pixel>& overlay);

} // namespace kc
