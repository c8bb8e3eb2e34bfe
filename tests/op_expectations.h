#pragma once
// Compares a painted canvas with the references: every pixel a thread covers must hold the op's
// reference value, every uncovered pixel the uncovered colour, and nothing may stay poisoned.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "paint_job.h"
#include "reference.h"
#include "registry.h"

namespace kc::ref {

// Reference value of the job's op at (x, y); `exact` is false where float rounding may differ by one.
inline Rgb expected(const PaintJob& job, int x, int y, bool& exact) {
    const OpParams& p = job.params;
    const std::string_view name = op_registry()[job.op].name;
    exact = true;
    if (name == "gradient") return gradient(x, y, p.width, p.height);
    if (name == "checkerboard") return checkerboard(x, y, p.cell);
    if (name == "blend") {
        exact = false; // the kernel blends in float, the reference in double
        return blend(x, y, p.width, p.height, p.cell, p.weight);
    }
    ADD_FAILURE() << "no reference for op " << name;
    return {};
}

inline ::testing::AssertionResult matches_reference(const PaintJob& job, const std::vector<Pixel>& out) {
    const int w = job.params.width, h = job.params.height;
    const auto writes = writes_per_pixel(job.launch, resolved_grid(job.launch, w, h), w, h);
    int bad = 0;
    std::string first;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const Pixel p = out[std::size_t(y) * w + x];
            bool ok;
            if (writes[std::size_t(y) * w + x] == 0) {
                ok = p == uncovered_pixel(x, y);
            } else {
                bool exact = true;
                const Rgb e = expected(job, x, y, exact);
                ok = exact ? same_rgb(p, e) : within_one(p, e);
            }
            if (!ok && bad++ == 0)
                first = "pixel (" + std::to_string(x) + "," + std::to_string(y) + ") = bgra(" + std::to_string(p.b) +
                        "," + std::to_string(p.g) + "," + std::to_string(p.r) + "," + std::to_string(p.a) + ")";
        }
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bad << " wrong pixels for op " << op_registry()[job.op].name << " block "
                                         << to_string(job.launch.block) << " grid "
                                         << to_string(resolved_grid(job.launch, w, h)) << " mapping "
                                         << mapping_name(job.launch.mapping) << " at " << w << "x" << h
                                         << "; first: " << first;
}

// The generator ops these references cover; the image ops have their own in reference_ops.h.
inline std::vector<int> generator_ops() {
    return {find_op("gradient")->index, find_op("checkerboard")->index, find_op("blend")->index};
}

// Random legal jobs over the generator ops: odd sizes, odd blocks, hand-set grids smaller and larger than
// the image, all mappings, and the tutorial's launch.
inline std::vector<PaintJob> random_jobs(unsigned seed, int count, int max_side) {
    std::mt19937 rng(seed);
    std::vector<PaintJob> jobs;
    for (int i = 0; i < count; ++i) {
        PaintJob j;
        j.op = generator_ops()[rng() % 3];
        j.params.width = 1 + static_cast<int>(rng() % max_side);
        j.params.height = 1 + static_cast<int>(rng() % max_side);
        j.params.weight = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
        j.params.cell = 1 + static_cast<int>(rng() % 97);
        j.launch.block = {1 + static_cast<int>(rng() % 64), 1 + static_cast<int>(rng() % 16), 1};
        j.launch.mapping = kAllMappings[rng() % std::size(kAllMappings)];
        j.launch.auto_grid = rng() % 2 == 0;
        j.launch.grid = {1 + static_cast<int>(rng() % 12), 1 + static_cast<int>(rng() % 12), 1};
        if (j.launch.mapping == Mapping::TwoD && rng() % 2 == 0)
            j.launch.pixels_per_thread = 4; // widths not always multiples of 4
        jobs.push_back(j);
    }
    for (int op : generator_ops()) {
        PaintJob tutorial;
        tutorial.op = op;
        tutorial.launch = tutorial_preset();
        jobs.push_back(tutorial);
    }
    return jobs;
}

} // namespace kc::ref
