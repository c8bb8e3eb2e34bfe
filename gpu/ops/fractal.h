#pragma once
// Mandelbrot and Julia sets: escape-time iteration z <- z^2 + c, in float or double.
#include "gpu/ops/op_base.h"

namespace kc {

// Iterations until |z| > 2 (max_iter: never escaped).
template <class T>
KC_HD int escape_iterations(T zx, T zy, T cx, T cy, int max_iter) {
    int n = 0;
    for (; n < max_iter; ++n) {
        const T xx = zx * zx, yy = zy * zy;
        if (xx + yy > T(4)) break;
        const T xy = zx * zy;
        zx = xx - yy + cx;
        zy = xy + xy + cy;
    }
    return n;
}

// Inside the set: black; outside: t = n / max_iter through a smooth polynomial palette.
KC_HD Pixel fractal_colour(int n, int max_iter) {
    if (n >= max_iter) return make_pixel(0, 0, 0);
    const float t = static_cast<float>(n) / static_cast<float>(max_iter);
    const float u = 1.0f - t;
    return make_pixel(static_cast<int>(9.0f * u * t * t * t * 255.0f), static_cast<int>(15.0f * u * u * t * t * 255.0f),
                      static_cast<int>(8.5f * u * u * u * t * 255.0f));
}

template <class T>
KC_HD void plane_point(int x, int y, const OpParams& p, T& px, T& py) {
    px = static_cast<T>(p.center_x) + static_cast<T>(x - p.width / 2) * static_cast<T>(p.scale);
    py = static_cast<T>(p.center_y) + static_cast<T>(y - p.height / 2) * static_cast<T>(p.scale);
}

struct MandelbrotOp : PerPixelOp {
    static constexpr const char* name = "mandelbrot";
    static constexpr unsigned inputs = 0;
    static constexpr const char* params = "iter double center-x center-y zoom";
    static constexpr const char* title = "Mandelbrot set";
    static constexpr const char* formula =
        "c = centre + (x - W/2, y - H/2)*scale, z0 = 0, z <- z^2 + c until |z| > 2 or n = max_iter; colour(n/max_iter)";
    static constexpr int bytes_read_per_pixel = 0;

    template <class T>
    KC_HD static Pixel at(int x, int y, const OpParams& p) {
        T cx, cy;
        plane_point<T>(x, y, p, cx, cy);
        return fractal_colour(escape_iterations<T>(T(0), T(0), cx, cy, p.max_iter), p.max_iter);
    }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        return p.use_double ? at<double>(x, y, p) : at<float>(x, y, p);
    }
};

struct JuliaOp : PerPixelOp {
    static constexpr const char* name = "julia";
    static constexpr unsigned inputs = 0;
    static constexpr const char* params = "iter double center-x center-y zoom julia-re julia-im";
    static constexpr const char* title = "Julia set";
    static constexpr const char* formula =
        "z0 = centre + (x - W/2, y - H/2)*scale, z <- z^2 + k (k = julia re, im) until |z| > 2 or n = max_iter";
    static constexpr int bytes_read_per_pixel = 0;

    template <class T>
    KC_HD static Pixel at(int x, int y, const OpParams& p) {
        T zx, zy;
        plane_point<T>(x, y, p, zx, zy);
        return fractal_colour(
            escape_iterations<T>(zx, zy, static_cast<T>(p.julia_re), static_cast<T>(p.julia_im), p.max_iter),
            p.max_iter);
    }
    KC_HD Pixel operator()(int x, int y, const OpParams& p) const {
        return p.use_double ? at<double>(x, y, p) : at<float>(x, y, p);
    }
};

} // namespace kc
