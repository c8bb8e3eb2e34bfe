#pragma once
// Compares a painted canvas with the references: every pixel a thread covers must hold the op's
// reference value, every uncovered pixel the uncovered colour, and nothing may stay poisoned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu/paint_job.h"
#include "tests/support/op_references.h"

namespace kc::ref {

// The op's picture from its reference (op_references.h), for every pixel, and how close the op
// must come: the ops read the fallback inputs (A the gradient, B the checkerboard) when no image
// is loaded.
struct Expected {
    std::vector<Rgb> px;
    int tolerance = 0;   // largest channel difference allowed (float kernels against double here)
    int allowed_bad = 0; // pixels that may differ more (float iteration near a fractal's boundary)
};

inline Expected expected_picture(const PaintJob& job) {
    const OpParams& p = job.params;
    const int w = p.width, h = p.height;
    const std::string_view name = op_registry()[job.op].name;
    Expected e;
    const Reference* r = reference_for(name);
    if (!r) {
        ADD_FAILURE() << "no reference for op " << name << ": add one to references() in tests/op_references.h";
        e.px.assign(std::size_t(w) * h, Rgb{-1, -1, -1});
        return e;
    }
    const Img a = fallback_a(w, h), b = fallback_b(w, h, p.cell);
    for (Pixel q : r->pixels(RefInputs{p, a, b})) e.px.push_back({q.r, q.g, q.b});
    e.tolerance = r->tolerance;
    e.allowed_bad = static_cast<int>(r->allowed_off(e.px.size()));
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
    const ResolvedLaunch resolved = resolve_launch(job, universal_limits()); // a custom op's own, else the job's
    const LaunchConfig& launch = resolved.launch;
    const auto writes = writes_per_pixel(launch, resolved.grid, w, h);
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
                                         << " grid " << to_string(resolved.grid) << " mapping "
                                         << mapping_name(launch.mapping) << " at " << w << "x" << h
                                         << "; first: " << first;
}

// The generator ops: their pictures need no input (the indexing tests use them).
inline std::vector<int> generator_ops() {
    return {find_op("gradient")->index, find_op("checkerboard")->index, find_op("blend")->index};
}

// Every op of the registry but the user's own kernel (which has no reference); an op someone
// left without one fails expected_picture.
inline std::vector<int> every_op() {
    std::vector<int> ops;
    for (const OpInfo& op : op_registry())
        if (!op.user_code) ops.push_back(op.index);
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
        j.params.variant = static_cast<int>(rng() % static_cast<unsigned>(op_registry()[j.op].variants));
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
