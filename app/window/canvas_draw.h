#pragma once
// The canvas drawn into the window's framebuffer where the view puts it; with the A/B split,
// side B beside it (right of the divider, or in its own half) and the diff's marks over both.
#include "app/ab/ab_painter.h"
#include "app/ab/ab_state.h"
#include "app/core/canvas_view.h"
#include "render/canvas.h"

namespace kc {

// Only the visible part of the texture is drawn, so a 64x zoom of a 4K canvas never asks GL for
// a viewport past its limits. `fb_h`: the framebuffer's height (GL counts y from the bottom).
void draw_canvas_view(const Canvas& canvas, const CanvasView& v, int fb_h);

// Side B and the marks, after side A was drawn with `a_view`.
void draw_ab_split(const AbPainter& b, const AbState& ab, const CanvasView& a_view, int fb_w, int fb_h);

} // namespace kc
