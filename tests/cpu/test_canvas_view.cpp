// The canvas view's transform: fit, 1:1, zoom about a point, the zoom ladder, pan, and the pixel
// lookup the inspector uses.
#include <gtest/gtest.h>

#include "app/core/canvas_view.h"

namespace kc {
namespace {

CanvasView view_of(int w, int h, RectD viewport, double pixels_per_point = 1.0) {
    CanvasView v;
    v.set_viewport(viewport, pixels_per_point);
    v.set_canvas_size(w, h);
    return v;
}

TEST(CanvasView, FitCentresTheWholeCanvasAsLargeAsItFits) {
    const CanvasView v = view_of(800, 400, {100, 0, 400, 400});
    EXPECT_TRUE(v.fitted());
    EXPECT_DOUBLE_EQ(v.zoom(), 0.5);
    const RectD r = v.image_rect();
    EXPECT_DOUBLE_EQ(r.x, 100);
    EXPECT_DOUBLE_EQ(r.y, 100);
    EXPECT_DOUBLE_EQ(r.w, 400);
    EXPECT_DOUBLE_EQ(r.h, 200);
}

// The teaching views fit at a whole zoom when magnifying (1.28 -> 1, 2.5 -> 2, on a 2x screen
// 1.28 points -> 2 pixels): every canvas pixel the same square, no moiré.
TEST(CanvasView, AWholeFitSnapsDownToAWholeZoomWhenMagnifying) {
    CanvasView v = view_of(500, 300, {0, 0, 640, 480}); // fit 1.28
    v.set_whole_fit(true);
    EXPECT_DOUBLE_EQ(v.zoom(), 1.0);
    v.set_viewport({0, 0, 1250, 900}); // 2.5
    EXPECT_DOUBLE_EQ(v.zoom(), 2.0);
    v.set_viewport({0, 0, 640, 480}, 2.0); // 2.56 pixels
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 2.0);
    v.set_viewport({0, 0, 250, 200}); // 0.5: shrinking stays the fit (filtered)
    EXPECT_DOUBLE_EQ(v.zoom(), 0.5);
    v.set_whole_fit(false);
    v.set_viewport({0, 0, 640, 480});
    EXPECT_DOUBLE_EQ(v.zoom(), 1.28);
}

TEST(CanvasView, FitFollowsTheViewportUntilTheUserZooms) {
    CanvasView v = view_of(100, 100, {0, 0, 200, 200});
    v.set_viewport({0, 0, 400, 300});
    EXPECT_DOUBLE_EQ(v.zoom(), 3.0);
    v.zoom_about({200, 150}, 2.0);
    EXPECT_FALSE(v.fitted());
    v.set_viewport({0, 0, 800, 800});
    EXPECT_DOUBLE_EQ(v.zoom(), 6.0);
    v.fit();
    EXPECT_DOUBLE_EQ(v.zoom(), 8.0);
}

TEST(CanvasView, ScreenAndCanvasMapBackAndForth) {
    CanvasView v = view_of(320, 200, {390, 0, 890, 700});
    v.zoom_about({500, 300}, 5.0);
    for (PointD c : {PointD{0, 0}, PointD{10.5, 20.25}, PointD{319.9, 199.9}}) {
        const PointD back = v.to_canvas(v.to_screen(c));
        EXPECT_NEAR(back.x, c.x, 1e-9);
        EXPECT_NEAR(back.y, c.y, 1e-9);
    }
}

TEST(CanvasView, ZoomKeepsThePointUnderTheCursor) {
    CanvasView v = view_of(640, 480, {0, 0, 1000, 800});
    const PointD cursor{731, 222};
    const PointD before = v.to_canvas(cursor);
    v.zoom_about(cursor, 3.7);
    const PointD after = v.to_canvas(cursor);
    // The picture's corner snaps to a whole framebuffer pixel: half a screen pixel at most.
    EXPECT_NEAR(after.x, before.x, 0.5 / v.zoom());
    EXPECT_NEAR(after.y, before.y, 0.5 / v.zoom());
    v.zoom_step(cursor, 3);
    EXPECT_NEAR(v.to_canvas(cursor).x, before.x, 0.5 / v.zoom());
}

TEST(CanvasView, OneToOneIsOneFramebufferPixelPerCanvasPixel) {
    CanvasView v = view_of(3840, 2160, {0, 0, 640, 400}, 2.0); // a 200% display: 2 pixels per point
    v.one_to_one();
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 1.0);
    EXPECT_DOUBLE_EQ(v.zoom(), 0.5);
    // About the middle: the canvas centre stays there.
    const PointD c = v.to_canvas({320, 200});
    EXPECT_NEAR(c.x, 1920, 1.0);
    EXPECT_NEAR(c.y, 1080, 1.0);
}

TEST(CanvasView, ZoomStepsThroughWholeZoomsUpTo64) {
    CanvasView v = view_of(100, 100, {0, 0, 150, 150}); // fit: 1.5
    const PointD middle{75, 75};
    v.zoom_step(middle, 1);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 2);
    v.zoom_step(middle, 1);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 3);
    v.zoom_step(middle, 3);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 8);
    v.zoom_step(middle, 100);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), CanvasView::kMaxPixelZoom);
    v.zoom_about(middle, 10.0); // never past the limit
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), CanvasView::kMaxPixelZoom);
    v.zoom_step(middle, -1);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 48);
    v.zoom_step(middle, -10);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 1);
    v.zoom_step(middle, -1);
    EXPECT_DOUBLE_EQ(v.pixel_zoom(), 0.5);
}

TEST(CanvasView, ZoomOutStopsAtHalfTheFit) {
    CanvasView v = view_of(4000, 4000, {0, 0, 400, 400}); // fit 0.1
    v.zoom_step({200, 200}, -20);
    EXPECT_DOUBLE_EQ(v.zoom(), 0.05);
}

TEST(CanvasView, PixelAtNamesThePixelUnderTheCursorWhenZoomed) {
    CanvasView v = view_of(320, 200, {300, 20, 600, 400}); // fit 1.875
    const RectD fitted = v.image_rect();
    EXPECT_DOUBLE_EQ(fitted.y, 33);       // 20 + (400 - 200 * 1.875) / 2, on a whole pixel
    v.zoom_step({fitted.x, fitted.y}, 3); // 4x about the picture's corner, which stays within a pixel
    ASSERT_DOUBLE_EQ(v.zoom(), 4.0);
    const RectD r = v.image_rect();
    EXPECT_NEAR(r.x, fitted.x, 1.0);
    EXPECT_NEAR(r.y, fitted.y, 1.0);
    EXPECT_EQ(v.pixel_at({r.x + 0.1, r.y + 0.1}), (CanvasPixel{0, 0}));
    EXPECT_EQ(v.pixel_at({r.x + 4 * 37 + 3.9, r.y + 4 * 11 + 0.5}), (CanvasPixel{37, 11}));
    EXPECT_EQ(v.pixel_at({r.x + 4 * 38, r.y + 4 * 11}), (CanvasPixel{38, 11}));
    EXPECT_FALSE(v.pixel_at({299, 100}));     // left of the viewport (over the panel)
    EXPECT_FALSE(v.pixel_at({r.x - 1, 100})); // beside the picture
}

TEST(CanvasView, PanMovesThePictureWithTheDragAndKeepsSomeInView) {
    CanvasView v = view_of(200, 200, {0, 0, 200, 200});
    const PointD before = v.to_screen({50, 50});
    v.pan(30, -20);
    const PointD after = v.to_screen({50, 50});
    EXPECT_DOUBLE_EQ(after.x - before.x, 30);
    EXPECT_DOUBLE_EQ(after.y - before.y, -20);
    v.pan(1e6, 1e6); // far away: the picture's corner stops at the viewport's middle
    EXPECT_DOUBLE_EQ(v.to_screen({0, 0}).x, 100);
    EXPECT_DOUBLE_EQ(v.to_screen({0, 0}).y, 100);
    EXPECT_TRUE(v.pixel_at({100.5, 100.5}));
}

TEST(CanvasView, VisibleRectIsThePictureInsideTheViewport) {
    CanvasView v = view_of(100, 100, {10, 10, 100, 100});
    v.zoom_about({60, 60}, 4.0);
    const RectD s = v.visible_rect();
    EXPECT_DOUBLE_EQ(s.x, 10);
    EXPECT_DOUBLE_EQ(s.y, 10);
    EXPECT_DOUBLE_EQ(s.w, 100);
    EXPECT_DOUBLE_EQ(s.h, 100);
}

} // namespace
} // namespace kc
