#pragma once
// One independent CPU reference per op of the registry, written from README.md's formulas
// (reference.h, reference_ops.h), never by calling the ops' functors. Every test that checks an
// op's picture reads it from here: the CPU emulator on random images (test_op_references.cpp) and
// the backends on the fallback inputs (op_expectations.h). An op added without a reference fails
// OpReferences.EveryOpInTheRegistryHasOneAndMatchesIt.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpu/ops/matmul.h"
#include "gpu/registry.h"
#include "tests/support/reference.h"
#include "tests/support/reference_ops.h"

namespace kc::ref {

struct RefInputs {
    const OpParams& p;
    const Img &a, &b; // the op's images A and B
};

struct Reference {
    std::function<std::vector<Pixel>(const RefInputs&)> pixels;
    int tolerance = 0;       // per channel (float kernels against double here)
    double fraction_off = 0; // of the pixels, allowed past the tolerance (float iteration near a set's edge)
    bool (*outputs_ok)(const RefInputs&, const OpOutputs&) = nullptr; // results that are not pixels
    std::size_t allowed_off(std::size_t pixels) const {
        return fraction_off > 0 ? 2 + static_cast<std::size_t>(fraction_off * double(pixels)) : 0;
    }
};

inline std::vector<Pixel> each_pixel(const OpParams& p, auto&& f) {
    std::vector<Pixel> out(std::size_t(p.width) * p.height);
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) out[std::size_t(y) * p.width + x] = f(x, y);
    return out;
}
inline Pixel pixel(Rgb c) { return rgb(c.r, c.g, c.b); }

// The inputs every op reads without images: A the gradient, B the checkerboard.
inline Img fallback_a(int w, int h) {
    OpParams p;
    p.width = w, p.height = h;
    return {w, h, each_pixel(p, [&](int x, int y) { return pixel(gradient(x, y, w, h)); })};
}
inline Img fallback_b(int w, int h, int cell) {
    OpParams p;
    p.width = w, p.height = h;
    return {w, h, each_pixel(p, [&](int x, int y) { return pixel(checkerboard(x, y, cell)); })};
}

// Escape-time fractals: c (mandelbrot) or z0 (julia) = centre + (x - W/2, y - H/2)*scale.
inline std::vector<Pixel> fractal(const OpParams& p, bool julia) {
    return each_pixel(p, [&](int x, int y) {
        const double u = p.center_x + (x - p.width / 2) * p.scale, v = p.center_y + (y - p.height / 2) * p.scale;
        const int n = julia ? escape(u, v, p.julia_re, p.julia_im, p.max_iter) : escape(0, 0, u, v, p.max_iter);
        return palette(n, p.max_iter);
    });
}

// matmul's heatmap: C = A*B in double from the op's input matrices; pixel (x, y) shows
// C[y*N/H][x*N/W], blue (negative) through white (0) to red (positive), saturating at 2*sqrt(N/3).
inline std::vector<Pixel> matmul_heatmap(const OpParams& p) {
    const int n = p.matmul_n;
    std::vector<double> c(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                c[std::size_t(i) * n + j] += double(matmul_input(i, k, n, 0)) * matmul_input(k, j, n, 1);
    return each_pixel(p, [&](int x, int y) {
        const std::size_t row = std::size_t(1LL * y * n / p.height), column = std::size_t(1LL * x * n / p.width);
        const double t = std::clamp(c[row * n + column] / (2 * std::sqrt(n / 3.0)), -1.0, 1.0);
        const int k = static_cast<int>(std::floor((1 - std::abs(t)) * 255 + 0.5));
        return t >= 0 ? rgb(255, k, k) : rgb(k, k, 255);
    });
}

inline const std::map<std::string, Reference, std::less<>>& references() {
    static const std::map<std::string, Reference, std::less<>> r = {
        {"gradient", {[](const RefInputs& i) {
             return each_pixel(i.p, [&](int x, int y) { return pixel(gradient(x, y, i.p.width, i.p.height)); });
         }}},
        {"checkerboard", {[](const RefInputs& i) {
             return each_pixel(i.p, [&](int x, int y) { return pixel(checkerboard(x, y, i.p.cell)); });
         }}},
        {"blend",
         {[](const RefInputs& i) {
              return (i.p.blend_integer ? blend_integer(i.a, i.b, i.p.weight) : blend(i.a, i.b, i.p.weight)).px;
          },
          1}},
        {"grayscale", {[](const RefInputs& i) { return grayscale(i.a).px; }}},
        {"invert", {[](const RefInputs& i) { return invert(i.a).px; }}},
        {"add", {[](const RefInputs& i) { return add(i.a, i.b).px; }}},
        {"threshold", {[](const RefInputs& i) { return threshold(i.a, i.p.level).px; }}},
        {"box_blur", {[](const RefInputs& i) { return box_blur(i.a, i.p.radius).px; }}},
        {"sobel", {[](const RefInputs& i) { return sobel(i.a).px; }}},
        {"histogram", // the canvas shows the input; the bins are its output
         {[](const RefInputs& i) { return i.a.px; }, 0, 0,
          [](const RefInputs& i, const OpOutputs& o) { return o.has_histogram && o.histogram == histogram(i.a); }}},
        {"mandelbrot", {[](const RefInputs& i) { return fractal(i.p, false); }, 1, 0.02}},
        {"julia", {[](const RefInputs& i) { return fractal(i.p, true); }, 1, 0.02}},
        {"matmul", {[](const RefInputs& i) { return matmul_heatmap(i.p); }, 1, 0.01}},
    };
    return r;
}

// The op's reference, or null: the user's own kernel has none here (it is the user's code;
// test_gpu_user_kernel checks the starters against their formulas), and neither has an op
// someone forgot, which EveryOpInTheRegistryHasOneAndMatchesIt reports.
inline const Reference* reference_for(std::string_view op) {
    const auto it = references().find(op);
    return it == references().end() ? nullptr : &it->second;
}

} // namespace kc::ref
