// Every op of the registry against an independent CPU reference (reference.h, reference_ops.h),
// with random inputs and random values of the parameters it reads (from the parameter table). An
// op added without a reference fails here: write one, and add it to references() below.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <string>

#include "gpu/cpu_emulator.h"
#include "gpu/ops/matmul.h"
#include "gpu/param_limits.h"
#include "gpu/registry.h"
#include "tests/poison.h"
#include "tests/reference.h"
#include "tests/reference_ops.h"

namespace kc {
namespace {

struct Inputs {
    const OpParams& p;
    const ref::Img &a, &b;
};

struct Reference {
    std::function<std::vector<Pixel>(const Inputs&)> pixels;
    int tolerance = 0;       // per channel
    double fraction_off = 0; // of the pixels, allowed past the tolerance (float iteration near a set's edge)
    bool (*outputs_ok)(const Inputs&, const OpOutputs&) = nullptr; // results that are not pixels
};

std::vector<Pixel> each_pixel(const OpParams& p, auto&& f) {
    std::vector<Pixel> out(std::size_t(p.width) * p.height);
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) out[std::size_t(y) * p.width + x] = f(x, y);
    return out;
}
Pixel pixel(ref::Rgb c) { return ref::rgb(c.r, c.g, c.b); }

std::vector<Pixel> fractal(const OpParams& p, bool julia) {
    return each_pixel(p, [&](int x, int y) {
        const double u = p.center_x + (x - p.width / 2) * p.scale, v = p.center_y + (y - p.height / 2) * p.scale;
        const int n =
            julia ? ref::escape(u, v, p.julia_re, p.julia_im, p.max_iter) : ref::escape(0, 0, u, v, p.max_iter);
        return ref::palette(n, p.max_iter);
    });
}

// C = A*B in double from the op's input definition, and its heatmap.
std::vector<double> matmul_c(int n) {
    std::vector<double> c(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                c[std::size_t(i) * n + j] += double(matmul_input(i, k, n, 0)) * matmul_input(k, j, n, 1);
    return c;
}
std::vector<Pixel> matmul_heatmap(const OpParams& p) {
    const int n = p.matmul_n;
    const std::vector<double> c = matmul_c(n);
    return each_pixel(p, [&](int x, int y) {
        const double t =
            std::clamp(c[std::size_t(y * n / p.height) * n + x * n / p.width] / (2 * std::sqrt(n / 3.0)), -1.0, 1.0);
        const int k = static_cast<int>(std::floor((1 - std::abs(t)) * 255 + 0.5));
        return t >= 0 ? ref::rgb(255, k, k) : ref::rgb(k, k, 255);
    });
}

const std::map<std::string, Reference>& references() {
    static const std::map<std::string, Reference> r = {
        {"gradient", {[](const Inputs& i) {
             return each_pixel(i.p, [&](int x, int y) { return pixel(ref::gradient(x, y, i.p.width, i.p.height)); });
         }}},
        {"checkerboard", {[](const Inputs& i) {
             return each_pixel(i.p, [&](int x, int y) { return pixel(ref::checkerboard(x, y, i.p.cell)); });
         }}},
        {"blend", {[](const Inputs& i) { return ref::blend(i.a, i.b, i.p.weight).px; }, 1}},
        {"grayscale", {[](const Inputs& i) { return ref::grayscale(i.a).px; }}},
        {"invert", {[](const Inputs& i) { return ref::invert(i.a).px; }}},
        {"add", {[](const Inputs& i) { return ref::add(i.a, i.b).px; }}},
        {"threshold", {[](const Inputs& i) { return ref::threshold(i.a, i.p.level).px; }}},
        {"box_blur", {[](const Inputs& i) { return ref::box_blur(i.a, i.p.radius).px; }}},
        {"sobel", {[](const Inputs& i) { return ref::sobel(i.a).px; }}},
        {"histogram",
         {[](const Inputs& i) { return i.a.px; }, 0, 0,
          [](const Inputs& i, const OpOutputs& o) { return o.has_histogram && o.histogram == ref::histogram(i.a); }}},
        {"mandelbrot", {[](const Inputs& i) { return fractal(i.p, false); }, 1, 0.02}},
        {"julia", {[](const Inputs& i) { return fractal(i.p, true); }, 1, 0.02}},
        {"matmul", {[](const Inputs& i) { return matmul_heatmap(i.p); }, 1}},
    };
    return r;
}

// A random value of each parameter the op reads, kept small where a frame's cost grows with it.
OpParams random_params(const OpInfo& op, std::mt19937& rng) {
    OpParams p;
    for (const ParamSpec& s : kParams) {
        if (!uses_param(op, s.name)) continue;
        double lo = s.slider_min(), hi = s.slider_max();
        if (s.name == "iter") hi = 300;
        if (s.name == "matmul-n") hi = 64;
        if (s.name == "cell") hi = 40;
        if (s.name == "variant") hi = op.variants - 1; // the parameter's range is every op's kernels
        if (s.name == "zoom") lo = 0.5, hi = 4;
        if (s.name.starts_with("center-")) lo = -0.6, hi = 0.3;
        double v = std::uniform_real_distribution<double>(lo, hi)(rng);
        if (s.whole()) v = std::round(v / s.multiple_of) * s.multiple_of;
        EXPECT_FALSE(set_param(p, s.name, v)) << s.name << " " << v;
    }
    return p;
}

TEST(OpReferences, EveryOpInTheRegistryHasOneAndMatchesIt) {
    std::mt19937 rng(20261201);
    for (const OpInfo& op : op_registry()) {
        SCOPED_TRACE(std::string(op.name));
        // The user's own kernel is the user's code, run by CUDA only (test_gpu_user_kernel.cpp).
        if (op.user_code) continue;
        const auto it = references().find(std::string(op.name));
        ASSERT_NE(it, references().end()) << "op " << op.name
                                          << " has no independent CPU reference: write one in tests/reference_ops.h "
                                             "and list it in references() in tests/test_op_references.cpp";
        for (int round = 0; round < 3; ++round) {
            OpParams p = random_params(op, rng);
            p.width = 23 + int(rng() % 40), p.height = 17 + int(rng() % 30);
            const ref::Img a = ref::blobby_image(p.width, p.height, rng()),
                           b = ref::random_image(p.width, p.height, rng());
            p.src_a = a.px.data(), p.src_b = b.px.data();
            PaintJob job;
            job.op = op.index, job.params = p;
            job.launch.block = {1 + int(rng() % 32), 1 + int(rng() % 8), 1};
            std::vector<Pixel> out(a.px.size(), test::kPoison);
            OpOutputs outputs;
            const auto error = CpuGridEmulator(2).paint(job, out.data(), &outputs);
            ASSERT_FALSE(error) << *error;
            const Inputs in{p, a, b};
            const std::vector<Pixel> want = it->second.pixels(in);
            std::size_t off = 0;
            for (std::size_t k = 0; k < out.size(); ++k)
                off += ref::max_diff({out[k]}, {want[k]}) > it->second.tolerance;
            EXPECT_LE(off, it->second.fraction_off * out.size())
                << off << " of " << out.size() << " pixels differ, round " << round;
            if (it->second.outputs_ok) {
                EXPECT_TRUE(it->second.outputs_ok(in, outputs)) << "round " << round;
            }
        }
    }
}

// Each reference's op is in the registry: a renamed op cannot leave its reference behind, untested.
TEST(OpReferences, EveryReferenceNamesAnOp) {
    for (const auto& [name, reference] : references()) EXPECT_NE(find_op(name), nullptr) << name;
}

} // namespace
} // namespace kc
