#pragma once
// Compares a painted canvas with the references: every pixel a thread covers must hold the op's
// reference value, every uncovered pixel the uncovered colour, and nothing may stay poisoned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu/ops/matmul.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"
#include "tests/reference.h"
#include "tests/reference_ops.h"

namespace kc::ref {

// The op's picture from the specification, for every pixel, and how close the op must come: the
// ops read the fallback inputs (A the gradient, B the checkerboard) when no image is loaded.
struct Expected {
    std::vector<Rgb> px;
    int tolerance = 0;   // largest channel difference allowed (float kernels against double here)
    int allowed_bad = 0; // pixels that may differ more (float iteration near a fractal's boundary)
};

inline int luma(Rgb c) { return static_cast<int>(std::floor(0.299 * c.r + 0.587 * c.g + 0.114 * c.b + 0.5 + 1e-9)); }

// The ops these references cannot run: the user's kernel is whatever they compiled
// (test_gpu_user_kernel checks the starters against their formulas).
inline bool has_no_reference(std::string_view op) { return op == "user_kernel"; }

inline Img fallback_a(int w, int h) {
    Img a{w, h, std::vector<Pixel>(std::size_t(w) * h)};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const Rgb c = gradient(x, y, w, h);
            a.px[std::size_t(y) * w + x] = rgb(c.r, c.g, c.b);
        }
    return a;
}
inline std::vector<Rgb> to_rgb(const Img& im) {
    std::vector<Rgb> out;
    for (Pixel p : im.px) out.push_back({p.r, p.g, p.b});
    return out;
}

// matmul's heatmap: C = A*B in double from the op's input matrices; pixel (x, y) shows
// C[y*N/H][x*N/W], blue (negative) through white (0) to red (positive), saturating at 2*sqrt(N/3).
inline std::vector<Rgb> matmul_heatmap(int w, int h, int n) {
    std::vector<double> c(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) {
            const double aik = matmul_input(i, k, n, 0);
            for (int j = 0; j < n; ++j) c[std::size_t(i) * n + j] += aik * matmul_input(k, j, n, 1);
        }
    std::vector<Rgb> out;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double t = std::clamp(c[std::size_t(1LL * y * n / h) * n + std::size_t(1LL * x * n / w)] /
                                            (2.0 * std::sqrt(n / 3.0)),
                                        -1.0, 1.0);
            const int k = static_cast<int>((1.0 - std::abs(t)) * 255.0 + 0.5);
            out.push_back(t >= 0 ? Rgb{255, k, k} : Rgb{k, k, 255});
        }
    return out;
}

// Escape-time fractals: c (mandelbrot) or z0 (julia) = centre + (x - W/2, y - H/2)*scale.
inline std::vector<Rgb> fractal(const OpParams& p, bool julia) {
    std::vector<Rgb> out;
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
            const double px = p.center_x + (x - p.width / 2) * p.scale, py = p.center_y + (y - p.height / 2) * p.scale;
            const int n = julia ? escape(px, py, p.julia_re, p.julia_im, p.max_iter) : escape(0, 0, px, py, p.max_iter);
            const Pixel c = palette(n, p.max_iter);
            out.push_back({c.r, c.g, c.b});
        }
    return out;
}

inline Expected expected_picture(const PaintJob& job) {
    const OpParams& p = job.params;
    const int w = p.width, h = p.height;
    const std::string_view name = op_registry()[job.op].name;
    Expected e;
    auto per_pixel = [&](auto&& f) {
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) e.px.push_back(f(gradient(x, y, w, h), checkerboard(x, y, p.cell), x, y));
    };
    auto gray = [](int v) { return Rgb{v, v, v}; };
    if (name == "gradient") {
        per_pixel([](Rgb a, Rgb, int, int) { return a; });
    } else if (name == "checkerboard") {
        per_pixel([](Rgb, Rgb b, int, int) { return b; });
    } else if (name == "blend") {
        e.tolerance = 1; // the kernel blends in float, the reference in double
        per_pixel([&](Rgb, Rgb, int x, int y) { return blend(x, y, w, h, p.cell, p.weight); });
    } else if (name == "grayscale") {
        per_pixel([&](Rgb a, Rgb, int, int) { return gray(luma(a)); });
    } else if (name == "invert") {
        per_pixel([](Rgb a, Rgb, int, int) { return Rgb{255 - a.r, 255 - a.g, 255 - a.b}; });
    } else if (name == "add") {
        per_pixel([](Rgb a, Rgb b, int, int) {
            return Rgb{std::min(255, a.r + b.r), std::min(255, a.g + b.g), std::min(255, a.b + b.b)};
        });
    } else if (name == "threshold") {
        per_pixel([&](Rgb a, Rgb, int, int) { return gray(luma(a) >= p.level ? 255 : 0); });
    } else if (name == "box_blur") {
        e.px = to_rgb(box_blur(fallback_a(w, h), p.radius));
    } else if (name == "sobel") {
        e.px = to_rgb(sobel(fallback_a(w, h)));
    } else if (name == "histogram") {
        e.px = to_rgb(fallback_a(w, h)); // the canvas shows the input; the bins are its output
    } else if (name == "matmul") {
        e.px = matmul_heatmap(w, h, p.matmul_n);
        e.tolerance = 1; // float sums and colours against double
        e.allowed_bad = 2 + w * h / 100;
    } else if (name == "mandelbrot" || name == "julia") {
        e.px = fractal(p, name == "julia");
        e.tolerance = 1;                // the palette in float
        e.allowed_bad = 2 + w * h / 50; // float (and FMA) iteration leaves or stays near the boundary
    } else {
        ADD_FAILURE() << "no reference for op " << name << ": add one here (tests/op_expectations.h)";
        e.px.assign(std::size_t(w) * h, Rgb{-1, -1, -1});
    }
    return e;
}

inline bool close_to(Pixel p, Rgb q, int tolerance) {
    return std::abs(p.r - q.r) <= tolerance && std::abs(p.g - q.g) <= tolerance && std::abs(p.b - q.b) <= tolerance &&
           p.a == 255;
}

// Every pixel a thread of the launch that runs covers holds the op's reference value, every other
// one the uncovered hatch.
inline ::testing::AssertionResult matches_reference(const PaintJob& job, const std::vector<Pixel>& out) {
    const int w = job.params.width, h = job.params.height;
    const LaunchConfig launch = effective_launch(job); // a custom op's own, else the job's
    const auto writes = writes_per_pixel(launch, resolved_grid(launch, w, h), w, h);
    const Expected e = expected_picture(job);
    int bad = 0, far = 0;
    std::string first;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            const Pixel p = out[i];
            const bool covered = writes[i] != 0;
            const bool ok = covered ? close_to(p, e.px[i], e.tolerance) : p == uncovered_pixel(x, y);
            if (ok) continue;
            // Only a written pixel may be one of the allowed few; poison or a hatch where a thread wrote never.
            if (covered && p.a == 255 && !(p == uncovered_pixel(x, y))) ++far;
            if (bad++ == 0)
                first = "pixel (" + std::to_string(x) + "," + std::to_string(y) + ") = bgra(" + std::to_string(p.b) +
                        "," + std::to_string(p.g) + "," + std::to_string(p.r) + "," + std::to_string(p.a) + ")" +
                        (covered ? ", expected rgb(" + std::to_string(e.px[i].r) + "," + std::to_string(e.px[i].g) +
                                       "," + std::to_string(e.px[i].b) + ")"
                                 : ", expected the uncovered hatch");
        }
    if (bad == 0 || (bad == far && far <= e.allowed_bad)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bad << " wrong pixels (" << e.allowed_bad << " allowed) for op "
                                         << op_registry()[job.op].name << " block " << to_string(launch.block)
                                         << " grid " << to_string(resolved_grid(launch, w, h)) << " mapping "
                                         << mapping_name(launch.mapping) << " at " << w << "x" << h
                                         << "; first: " << first;
}

// The generator ops: their pictures need no input (the indexing tests use them).
inline std::vector<int> generator_ops() {
    return {find_op("gradient")->index, find_op("checkerboard")->index, find_op("blend")->index};
}

// Every op of the registry with a reference: an op added without one fails expected_picture.
inline std::vector<int> every_op() {
    std::vector<int> ops;
    for (const OpInfo& op : op_registry())
        if (!has_no_reference(op.name)) ops.push_back(op.index);
    return ops;
}

// Random legal jobs over every op with a reference: odd sizes, odd blocks, hand-set grids smaller
// and larger than the image, all mappings, and the tutorial's launch; each op's parameters drawn
// from their ranges (small matrices and iteration counts, so the references stay quick).
inline std::vector<PaintJob> random_jobs(unsigned seed, int count, int max_side) {
    std::mt19937 rng(seed);
    const std::vector<int> ops = every_op();
    std::vector<PaintJob> jobs;
    for (int i = 0; i < count; ++i) {
        PaintJob j;
        j.op = ops[i % ops.size()]; // each op in turn, so every one is run whatever the count
        j.params.width = 1 + static_cast<int>(rng() % max_side);
        j.params.height = 1 + static_cast<int>(rng() % max_side);
        j.params.weight = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
        j.params.cell = 1 + static_cast<int>(rng() % 97);
        j.params.level = static_cast<int>(rng() % 257);
        j.params.radius = static_cast<int>(rng() % (kMaxBlurRadius + 1));
        j.params.variant = static_cast<int>(rng() % 2);
        j.params.matmul_n = 16 * (1 + static_cast<int>(rng() % 4));
        j.params.max_iter = 1 + static_cast<int>(rng() % 200);
        j.params.use_double = rng() % 2 == 0;
        j.params.scale = 3.0 / std::max({j.params.width, j.params.height, 8}); // the whole set in view
        j.launch.block = {1 + static_cast<int>(rng() % 64), 1 + static_cast<int>(rng() % 16), 1};
        j.launch.mapping = kAllMappings[rng() % std::size(kAllMappings)];
        j.launch.auto_grid = rng() % 2 == 0;
        j.launch.grid = {1 + static_cast<int>(rng() % 12), 1 + static_cast<int>(rng() % 12), 1};
        if (j.launch.mapping == Mapping::TwoD && rng() % 2 == 0)
            j.launch.pixels_per_thread = 4; // widths not always multiples of 4
        jobs.push_back(j);
    }
    for (int op : ops) {
        PaintJob tutorial;
        tutorial.op = op;
        tutorial.launch = tutorial_preset();
        jobs.push_back(tutorial);
    }
    return jobs;
}

} // namespace kc::ref
