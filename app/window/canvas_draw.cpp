#include "app/window/canvas_draw.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "app/ab/split_picture.h"

namespace kc {

void draw_canvas_view(const Canvas& canvas, const CanvasView& v, int fb_h) {
    const RectD shown = v.visible_rect();
    const double ppp = v.pixels_per_point();
    const int x0 = int(std::lround(shown.x * ppp)), x1 = int(std::lround((shown.x + shown.w) * ppp));
    const int y0 = int(std::lround(shown.y * ppp)), y1 = int(std::lround((shown.y + shown.h) * ppp));
    if (x1 <= x0 || y1 <= y0) return;
    // The texture part under exactly these whole framebuffer pixels.
    const PointD a = v.to_canvas({x0 / ppp, y0 / ppp}), b = v.to_canvas({x1 / ppp, y1 / ppp});
    const float w = float(canvas.width()), h = float(canvas.height());
    canvas.draw_part({x0, fb_h - y1, x1 - x0, y1 - y0},
                     {float(a.x) / w, float(a.y) / h, float(b.x) / w, float(b.y) / h});
}

void draw_ab_split(const AbPainter& b, const AbState& ab, const CanvasView& a_view, int fb_w, int fb_h) {
    if (!b.ready()) return;
    const bool side_by_side = ab.split.layout == AbLayout::SideBySide;
    if (side_by_side) {
        draw_canvas_view(b.canvas(), ab.b_view, fb_h);
    } else { // the same view, cut at the divider: B shows from its column on
        const int column = divider_column(ab.split.divider, a_view.canvas_width());
        const double x = a_view.to_screen({double(column), 0}).x * a_view.pixels_per_point();
        const int fb_x = std::clamp(int(std::lround(x)), 0, fb_w);
        glEnable(GL_SCISSOR_TEST);
        glScissor(fb_x, 0, fb_w - fb_x, fb_h);
        draw_canvas_view(b.canvas(), a_view, fb_h);
        glDisable(GL_SCISSOR_TEST);
    }
    if (!ab.split.diff || ab.readout.diff.differing == 0) return;
    glEnable(GL_BLEND); // the marks are magenta on black: added, they turn differing pixels magenta only
    glBlendFunc(GL_ONE, GL_ONE);
    draw_canvas_view(b.marks(), a_view, fb_h);
    if (side_by_side) draw_canvas_view(b.marks(), ab.b_view, fb_h);
    glDisable(GL_BLEND);
}

} // namespace kc
