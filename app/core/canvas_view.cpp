#include "app/core/canvas_view.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace kc {

namespace {

// Zooms of at least one framebuffer pixel per canvas pixel that keep every pixel the same square.
constexpr std::array<double, 12> kWholeZooms{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};

// The zoom `steps` levels above (or below) `pixel_zoom` on the ladder ... 1/4, 1/2, 1, 2, 3, 4, 6 ...
double ladder_step(double pixel_zoom, int steps) {
    constexpr double kSlack = 1e-6; // a zoom already on a level is on it, not just under
    double z = pixel_zoom;
    for (; steps > 0; --steps) {
        if (z < 1 - kSlack) {
            z = std::min(1.0, std::exp2(std::floor(std::log2(z) + kSlack) + 1));
            continue;
        }
        const auto next = std::upper_bound(kWholeZooms.begin(), kWholeZooms.end(), z * (1 + kSlack));
        z = next == kWholeZooms.end() ? kWholeZooms.back() : *next;
    }
    for (; steps < 0; ++steps) {
        if (z <= 1 + kSlack) {
            z = std::exp2(std::ceil(std::log2(z) - kSlack) - 1);
            continue;
        }
        const auto below = std::lower_bound(kWholeZooms.begin(), kWholeZooms.end(), z * (1 - kSlack));
        z = *(below - 1); // z > 1, so some level lies below it
    }
    return z;
}

} // namespace

void CanvasView::set_viewport(const RectD& viewport, double pixels_per_point) {
    viewport_ = viewport;
    viewport_.w = std::max(1.0, viewport_.w), viewport_.h = std::max(1.0, viewport_.h);
    pixels_per_point_ = pixels_per_point > 0 ? pixels_per_point : 1.0;
}

void CanvasView::set_canvas_size(int width, int height) {
    width_ = std::max(1, width), height_ = std::max(1, height);
    clamp_centre();
}

void CanvasView::fit() { fitted_ = true; }

void CanvasView::one_to_one() {
    set_zoom(1.0 / pixels_per_point_, {viewport_.x + viewport_.w / 2, viewport_.y + viewport_.h / 2});
}

void CanvasView::zoom_about(PointD screen, double factor) { set_zoom(zoom() * factor, screen); }

void CanvasView::zoom_step(PointD screen, int steps) {
    set_zoom(ladder_step(pixel_zoom(), steps) / pixels_per_point_, screen);
}

void CanvasView::pan(double dx, double dy) {
    centre_ = centre();
    zoom_ = zoom();
    fitted_ = false;
    centre_.x -= dx / zoom_, centre_.y -= dy / zoom_;
    clamp_centre();
}

double CanvasView::fit_zoom() const {
    const double fit = std::min(viewport_.w / width_, viewport_.h / height_), pixels = fit * pixels_per_point_;
    if (!whole_fit_ || pixels < 1) return fit; // shrinking is filtered (the texture's linear min filter)
    return *(std::upper_bound(kWholeZooms.begin(), kWholeZooms.end(), pixels * (1 + 1e-9)) - 1) / pixels_per_point_;
}

PointD CanvasView::to_canvas(PointD screen) const {
    const RectD r = image_rect();
    return {(screen.x - r.x) / zoom(), (screen.y - r.y) / zoom()};
}

PointD CanvasView::to_screen(PointD canvas) const {
    const RectD r = image_rect();
    return {r.x + canvas.x * zoom(), r.y + canvas.y * zoom()};
}

std::optional<CanvasPixel> CanvasView::pixel_at(PointD screen) const {
    if (!viewport_.contains(screen)) return std::nullopt;
    const PointD c = to_canvas(screen);
    const int x = static_cast<int>(std::floor(c.x)), y = static_cast<int>(std::floor(c.y));
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return std::nullopt;
    return CanvasPixel{x, y};
}

RectD CanvasView::image_rect() const {
    const double z = zoom();
    const PointD c = centre();
    // The picture's corner on a whole framebuffer pixel: pixel edges, the grid and the outlines
    // then fall on the same framebuffer columns.
    auto snap = [&](double v) { return std::round(v * pixels_per_point_) / pixels_per_point_; };
    return {snap(viewport_.x + viewport_.w / 2 - c.x * z), snap(viewport_.y + viewport_.h / 2 - c.y * z), width_ * z,
            height_ * z};
}

RectD CanvasView::visible_rect() const {
    const RectD r = image_rect(), v = viewport_;
    const double x0 = std::max(r.x, v.x), y0 = std::max(r.y, v.y);
    const double x1 = std::min(r.x + r.w, v.x + v.w), y1 = std::min(r.y + r.h, v.y + v.h);
    return {x0, y0, std::max(0.0, x1 - x0), std::max(0.0, y1 - y0)};
}

PointD CanvasView::centre() const { return fitted_ ? PointD{width_ / 2.0, height_ / 2.0} : centre_; }

// Small enough to see a whole 4K canvas in a small window, or half of the fit.
double CanvasView::min_zoom() const { return std::min(fit_zoom(), 1.0 / pixels_per_point_) / 2; }

void CanvasView::set_zoom(double new_zoom, PointD keep_screen) {
    // Unsnapped, so that zooming back and forth does not drift by the snap.
    const PointD c = centre();
    const double old_zoom = zoom();
    const PointD kept{c.x + (keep_screen.x - (viewport_.x + viewport_.w / 2)) / old_zoom,
                      c.y + (keep_screen.y - (viewport_.y + viewport_.h / 2)) / old_zoom};
    zoom_ = std::clamp(new_zoom, min_zoom(), kMaxPixelZoom / pixels_per_point_);
    fitted_ = false;
    // The canvas point `kept` stays at `keep_screen`.
    centre_.x = kept.x - (keep_screen.x - (viewport_.x + viewport_.w / 2)) / zoom_;
    centre_.y = kept.y - (keep_screen.y - (viewport_.y + viewport_.h / 2)) / zoom_;
    clamp_centre();
}

// Some of the picture stays under the viewport's middle: a pan can never lose it.
void CanvasView::clamp_centre() {
    centre_.x = std::clamp(centre_.x, 0.0, double(width_));
    centre_.y = std::clamp(centre_.y, 0.0, double(height_));
}

} // namespace kc
