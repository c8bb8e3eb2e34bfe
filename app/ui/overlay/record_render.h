#pragma once
// Renders a recording's frames offscreen: the painter paints frame n's job into a canvas of the
// recording's size, and the overlays the window draws over its canvas (outlines, tint, inspector,
// legend, caption) are drawn by Dear ImGui into a framebuffer of the same size, in an ImGui
// context of the renderer's own, then laid over the canvas pixels. Needs a current GL context.
#include <functional>
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

// One side's frame in layers, top row first: the canvas; what is drawn over the canvas where it
// lies (outlines, tint, the inspector); the boxes over the whole frame (caption, legend). An empty
// layer draws nothing. The A/B split compares canvases and lays each side's marks on its own side.
struct FrameLayers {
    std::vector<Pixel> canvas, marks, boxes;
};
using LayersRender = std::function<std::optional<std::string>(const RecordFrame&, FrameLayers&)>;

class RecordRenderer {
public:
    RecordRenderer(FramePainter& painter, int width, int height);
    ~RecordRenderer();
    RecordRenderer(const RecordRenderer&) = delete;
    RecordRenderer& operator=(const RecordRenderer&) = delete;

    // Frame `f` as width*height pixels, top row first; or why it could not be painted.
    std::optional<std::string> render(const RecordFrame& f, const RecordOverlays& overlays, const SourceImages* sources,
                                      std::vector<Pixel>& out);
    // The same frame with its overlays kept apart from the canvas.
    std::optional<std::string> render_layers(const RecordFrame& f, const RecordOverlays& overlays,
                                             const SourceImages* sources, FrameLayers& out);

private:
    struct Overlay;
    FramePainter& painter_;
    Canvas canvas_;
    std::unique_ptr<Overlay> overlay_; // made at the first frame with overlays
};

// Side B's overlays in a recording of the split: A's outlines and tint (they describe B's own
// launch on its side); side by side, also its own caption and legend; over a divider, the
// caption, legend and inspector are A's alone.
RecordOverlays side_b_overlays(const RecordOverlays& a, AbLayout layout);

// A frame of the A/B split: A's picture by `a`, B's by `b` (the same frame: its time, on B's op
// and launch), put together as the window shows them (split_picture.h): the canvases compared
// (differing pixels marked), each side's marks on its side; the boxes (caption, legend) each
// side's on its half side by side, A's over the whole frame at a divider.
std::optional<std::string> render_split_frame(const AbSplit& split, const RecordFrame& f, const LayersRender& a,
                                              const LayersRender& b, std::vector<Pixel>& out);

// Lays ImGui's output (premultiplied by its blending onto transparent black) over `canvas`.
void composite_over(std::vector<Pixel>& canvas, const std::vector<Pixel>& overlay);

} // namespace kc
