#pragma once
// How the window shows the canvas: a zoom (screen points per canvas pixel) and the canvas point
// at the middle of the viewport. One mapping, used by the GL draw, the overlay, the inspector's
// hover lookup and the fractals' pan and zoom, so they all agree on which pixel is where.
// Screen coordinates are ImGui's: points, origin at the window's top-left. Canvas coordinates
// are pixels, origin at the picture's top-left (as the kernels count y); pixel (x, y) covers
// [x, x+1) x [y, y+1).
#include <optional>

namespace kc {

struct PointD {
    double x = 0, y = 0;
};

struct RectD {
    double x = 0, y = 0, w = 0, h = 0;
    bool contains(PointD p) const { return p.x >= x && p.y >= y && p.x < x + w && p.y < y + h; }
    bool empty() const { return w <= 0 || h <= 0; }
};

struct CanvasPixel {
    int x = 0, y = 0;
    bool operator==(const CanvasPixel&) const = default;
};

class CanvasView {
public:
    static constexpr double kMaxPixelZoom = 64.0; // framebuffer pixels per canvas pixel, at most

    // Where the canvas may be drawn, and how many framebuffer pixels one point is (for 1:1).
    void set_viewport(const RectD& viewport, double pixels_per_point = 1.0);
    void set_canvas_size(int width, int height);

    // The whole canvas, centred, as large as fits; it keeps fitting as the window or canvas
    // changes until the user zooms or pans.
    void fit();
    // Whether the fit snaps down to a whole zoom (1, 2, 3, 4, 6 ... framebuffer pixels per canvas
    // pixel) when it magnifies: the teaching views' one-pixel patterns then show no moiré and
    // every row the same height.
    void set_whole_fit(bool whole) { whole_fit_ = whole; }
    // One canvas pixel per framebuffer pixel, about the canvas point at the viewport's middle.
    void one_to_one();
    // Multiplies the zoom by `factor`, keeping the canvas point under `screen` where it is.
    void zoom_about(PointD screen, double factor);
    // The next (steps > 0) or previous zoom of 1, 2, 3, 4, 6, 8, 12, ... 64 framebuffer pixels per
    // canvas pixel (halves below 1): whole numbers keep every pixel the same square.
    void zoom_step(PointD screen, int steps);
    void pan(double dx, double dy); // by screen points, as the picture follows a drag

    bool fitted() const { return fitted_; }
    double zoom() const { return fitted_ ? fit_zoom() : zoom_; }     // screen points per canvas pixel
    double pixel_zoom() const { return zoom() * pixels_per_point_; } // framebuffer pixels per canvas pixel
    double fit_zoom() const;
    double pixels_per_point() const { return pixels_per_point_; }
    const RectD& viewport() const { return viewport_; }
    int canvas_width() const { return width_; }
    int canvas_height() const { return height_; }

    PointD to_canvas(PointD screen) const;
    PointD to_screen(PointD canvas) const;
    // The canvas pixel under `screen`: none outside the viewport or the picture.
    std::optional<CanvasPixel> pixel_at(PointD screen) const;
    RectD image_rect() const;   // where the whole picture lands (it may reach past the viewport)
    RectD visible_rect() const; // the part of it inside the viewport

private:
    PointD centre() const; // the canvas point at the viewport's middle
    double min_zoom() const;
    void set_zoom(double new_zoom, PointD keep_screen);
    void clamp_centre();

    RectD viewport_{0, 0, 1, 1};
    double pixels_per_point_ = 1.0;
    int width_ = 1, height_ = 1;
    bool fitted_ = true;
    bool whole_fit_ = false;
    double zoom_ = 1.0;
    PointD centre_{0.5, 0.5};
};

} // namespace kc
