// The image operations' CUDA kernels against the CPU backend and the independent references.
// Every test skips, saying why, when no CUDA device is usable (CI, laptops without NVIDIA).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/cpu_emulator.h"
#include "gpu/cuda_device.h"
#include "gpu/cuda_paint.h"
#include "gpu/ops/matmul_cuda.h"
#include "gpu/ops/op_list.h"
#include "gpu/registry.h"
#include "tests/support/gpu_test.h"
#include "tests/support/reference_ops.h"
#include "tests/support/test_gpu_device.h"

namespace kc {
namespace {

using test::kPoison;

class GpuOps : public test::GpuTest {
protected:
    // Runs `op` with the images in device memory, into a poisoned device buffer; returns the pixels.
    std::vector<Pixel> paint_gpu(std::string_view op, const ref::Img& a, const ref::Img* b, OpParams p,
                                 LaunchConfig launch = {}) {
        const std::size_t n = a.px.size();
        DeviceBuffer<Pixel> da(n), db(b ? n : 0);
        // On the painting stream (non-blocking): a pageable cudaMemcpy may return before its DMA lands.
        KC_CUDA_CHECK_THROW(cudaMemcpyAsync(da.data(), a.px.data(), da.bytes(), cudaMemcpyHostToDevice, stream_.get()));
        if (b)
            KC_CUDA_CHECK_THROW(
                cudaMemcpyAsync(db.data(), b->px.data(), db.bytes(), cudaMemcpyHostToDevice, stream_.get()));
        PaintJob job;
        job.op = find_op(op)->index;
        p.width = a.w, p.height = a.h;
        p.src_a = da.data();
        p.src_b = b ? db.data() : nullptr;
        job.params = p;
        job.launch = launch;
        return paint_poisoned(job);
    }
    std::vector<Pixel> paint_cpu(std::string_view op, const ref::Img& a, const ref::Img* b, OpParams p) {
        PaintJob job;
        job.op = find_op(op)->index;
        p.width = a.w, p.height = a.h;
        p.src_a = a.px.data();
        p.src_b = b ? b->px.data() : nullptr;
        job.params = p;
        std::vector<Pixel> out(a.px.size(), kPoison);
        EXPECT_FALSE(CpuGridEmulator(2).paint(job, out.data()));
        return out;
    }
};

constexpr int kW = 83, kH = 61; // not multiples of 16: partial tiles at the right and bottom

TEST_F(GpuOps, ElementwiseOpsMatchTheReferences) {
    const auto a = ref::random_image(kW, kH, 1), b = ref::random_image(kW, kH, 2);
    OpParams p;
    EXPECT_EQ(paint_gpu("grayscale", a, nullptr, p), ref::grayscale(a).px);
    EXPECT_EQ(paint_gpu("invert", a, nullptr, p), ref::invert(a).px);
    EXPECT_EQ(paint_gpu("add", a, &b, p), ref::add(a, b).px);
    p.level = 100;
    EXPECT_EQ(paint_gpu("threshold", a, nullptr, p), ref::threshold(a, 100).px);
    p.weight = 0.3f; // float on the device (FMA may round differently): within 1
    EXPECT_LE(ref::max_diff(paint_gpu("blend", a, &b, p), ref::blend(a, b, 0.3).px), 1);
}

TEST_F(GpuOps, GrayscaleWithTheTutorialLaunchAndGridStride) {
    const auto a = ref::random_image(800, 800, 3);
    EXPECT_EQ(paint_gpu("grayscale", a, nullptr, {}, tutorial_preset()), ref::grayscale(a).px);
    LaunchConfig l;
    l.block = {128, 1, 1}, l.grid = {7, 1, 1}, l.auto_grid = false, l.mapping = Mapping::GridStride;
    EXPECT_EQ(paint_gpu("grayscale", a, nullptr, {}, l), ref::grayscale(a).px);
}

// The plain-pixels kernel is compiled once per path (4 pixels, tiled mappings, linear mappings):
// each must write what the emulator's one body writes, at a size no block shape divides.
TEST_F(GpuOps, EveryPathOfThePixelKernelEqualsTheEmulator) {
    const auto a = ref::random_image(kW, kH, 5), b = ref::random_image(kW, kH, 6);
    const LaunchConfig quad{.block = {8, 4, 1}, .pixels_per_thread = 4};
    const LaunchConfig columns{.block = {16, 8, 1}, .mapping = Mapping::Columns};
    const LaunchConfig linear{.block = {96, 1, 1}, .mapping = Mapping::Linear};
    const LaunchConfig stride{
        .block = {64, 1, 1}, .grid = {5, 1, 1}, .auto_grid = false, .mapping = Mapping::GridStride};
    for (std::string_view op : {"gradient", "checkerboard", "blend", "invert", "grayscale", "add", "threshold"}) {
        const auto expected = paint_cpu(op, a, &b, {});
        for (const LaunchConfig& l : {LaunchConfig{}, quad, columns, linear, stride}) {
            const auto got = paint_gpu(op, a, &b, {}, l);
            // blend rounds a float mix: the device may fuse its multiply-add, within 1.
            EXPECT_LE(ref::max_diff(got, expected), op == "blend" ? 1 : 0)
                << op << " " << mapping_name(l.mapping) << " ppt " << l.pixels_per_thread;
            for (Pixel q : got) ASSERT_EQ(q.a, 255) << op << ": unwritten pixel";
        }
    }
}

TEST_F(GpuOps, BoxBlurNaiveAndTiledEqualTheReferenceBordersIncluded) {
    const auto a = ref::blobby_image(kW, kH, 4);
    for (int r : {0, 1, 2, 4, 16}) { // 2: the kernel compiled for that radius
        const auto expected = ref::box_blur(a, r).px;
        for (int v : {0, 1}) {
            OpParams p;
            p.radius = r, p.variant = v;
            EXPECT_EQ(paint_gpu("box_blur", a, nullptr, p), expected) << "radius " << r << " variant " << v;
        }
    }
}

TEST_F(GpuOps, SobelNaiveAndTiledEqualTheReferenceBordersIncluded) {
    for (auto [w, h] : {std::pair{kW, kH}, {16, 16}, {1, 1}, {3, 40}}) {
        const auto a = ref::blobby_image(w, h, 5);
        const auto expected = ref::sobel(a).px;
        for (int v : {0, 1}) {
            OpParams p;
            p.variant = v;
            EXPECT_EQ(paint_gpu("sobel", a, nullptr, p), expected) << w << "x" << h << " variant " << v;
        }
    }
}

TEST_F(GpuOps, HistogramGlobalAndSharedEqualACpuCount) {
    // 1000x700 spans many blocks and the grid-stride loop (1024 blocks of 256 threads cap).
    for (auto [w, h, seed] : {std::tuple{kW, kH, 6u}, {1000, 1100, 7u}}) {
        const auto a = ref::random_image(w, h, seed);
        const auto expected = ref::histogram(a);
        for (int v : {0, 1}) {
            OpParams p;
            p.variant = v;
            EXPECT_EQ(paint_gpu("histogram", a, nullptr, p), a.px);
            std::vector<std::uint32_t> bins(kHistogramBins);
            KC_CUDA_CHECK_THROW(
                cudaMemcpy(bins.data(), ws_.bins[v].data(), ws_.bins[v].bytes(), cudaMemcpyDeviceToHost));
            for (int c = 0; c < 4; ++c)
                for (int i = 0; i < 256; ++i)
                    ASSERT_EQ(bins[c * 256 + i], expected[c][i]) << "variant " << v << " channel " << c << " bin " << i;
        }
    }
    // A flat image: every pixel in one bin (the global version's worst contention).
    ref::Img flat{300, 200, std::vector<Pixel>(300 * 200, ref::rgb(10, 20, 30))};
    for (int v : {0, 1}) {
        OpParams p;
        p.variant = v;
        paint_gpu("histogram", flat, nullptr, p);
        std::uint32_t r10 = 0;
        KC_CUDA_CHECK_THROW(cudaMemcpy(&r10, ws_.bins[v].data() + 256 + 10, 4, cudaMemcpyDeviceToHost));
        EXPECT_EQ(r10, 300u * 200u);
    }
}

TEST_F(GpuOps, FractalsMatchTheCpuBackend) {
    ref::Img none{120, 90, std::vector<Pixel>(120 * 90)};
    for (const char* op : {"mandelbrot", "julia"}) {
        OpParams p;
        p.scale = 3.0 / 120, p.max_iter = 300, p.use_double = true;
        if (std::string(op) == "julia") p.center_x = 0;
        // Double: the iteration count is exact on both sides (contraction to FMA aside): allow 0.5%.
        const auto gpu = paint_gpu(op, none, nullptr, p), cpu = paint_cpu(op, none, nullptr, p);
        int differ = 0;
        for (std::size_t i = 0; i < gpu.size(); ++i) differ += ref::max_diff({gpu[i]}, {cpu[i]}) > 1;
        EXPECT_LE(differ, int(gpu.size()) / 200) << op;
        for (Pixel q : gpu) ASSERT_EQ(q.a, 255) << "unwritten pixel";
    }
}

TEST_F(GpuOps, MatmulNaiveAndTiledWithinRelativeErrorOfDouble) {
    const int n = 256;
    ref::Img canvas{64, 48, std::vector<Pixel>(64 * 48)};
    std::vector<double> c(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) {
            const double aik = matmul_input(i, k, n, 0);
            for (int j = 0; j < n; ++j) c[i * n + j] += aik * matmul_input(k, j, n, 1);
        }
    for (int v : {0, 1, 2}) { // every variant the panel offers, 2 the register-blocked one
        OpParams p;
        p.matmul_n = n, p.variant = v;
        paint_gpu("matmul", canvas, nullptr, p); // sizes the workspace's C, which is then poisoned
        KC_CUDA_CHECK_THROW(cudaMemsetAsync(ws_.c.data(), 0xFF, ws_.c.bytes(), stream_.get())); // NaN
        const auto pixels = paint_gpu("matmul", canvas, nullptr, p);
        for (Pixel q : pixels) ASSERT_EQ(q.a, 255) << "unwritten pixel";
        std::vector<float> got(std::size_t(n) * n, std::nanf(""));
        KC_CUDA_CHECK_THROW(cudaMemcpy(got.data(), ws_.c.data(), ws_.c.bytes(), cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (std::size_t i = 0; i < got.size(); ++i) num += (got[i] - c[i]) * (got[i] - c[i]), den += c[i] * c[i];
        EXPECT_LT(std::sqrt(num / den), 1e-5) << "variant " << v;
    }
}

// The register-blocked kernel (bench only so far) at an N its 128x128 tiles divide and one they do
// not (edge tiles read zeros, write nothing past N), into a C poisoned with NaN.
TEST_F(GpuOps, MatmulRegisterBlockedWithinRelativeErrorOfDouble) {
    for (int n : {256, 272}) {
        std::vector<double> c(std::size_t(n) * n, 0.0);
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) {
                const double aik = matmul_input(i, k, n, 0);
                for (int j = 0; j < n; ++j) c[i * n + j] += aik * matmul_input(k, j, n, 1);
            }
        DeviceBuffer<float> da(c.size()), db(c.size()), dc(c.size());
        KC_CUDA_CHECK_THROW(cudaMemsetAsync(dc.data(), 0xFF, dc.bytes(), stream_.get())); // NaN
        matmul_fill_inputs(da.data(), db.data(), n, stream_.get());
        matmul_multiply(2, da.data(), db.data(), dc.data(), n, stream_.get());
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
        std::vector<float> got(c.size());
        KC_CUDA_CHECK_THROW(cudaMemcpy(got.data(), dc.data(), dc.bytes(), cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (std::size_t i = 0; i < got.size(); ++i) num += (got[i] - c[i]) * (got[i] - c[i]), den += c[i] * c[i];
        EXPECT_LT(std::sqrt(num / den), 1e-5) << "N = " << n; // a NaN left anywhere fails this too
    }
}

// Every multiply kernel on random matrices (not the op's fixed inputs) at an N the register
// kernel's 128x128 tiles do not divide, into a C poisoned with NaN, against a double product.
TEST_F(GpuOps, MatmulEveryKernelMultipliesRandomMatrices) {
    const int n = 144;
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> a(std::size_t(n) * n), b(a.size());
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    std::vector<double> c(a.size(), 0.0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j) c[i * n + j] += double(a[i * n + k]) * b[k * n + j];
    DeviceBuffer<float> da(a.size()), db(a.size()), dc(a.size());
    KC_CUDA_CHECK_THROW(cudaMemcpy(da.data(), a.data(), da.bytes(), cudaMemcpyHostToDevice));
    KC_CUDA_CHECK_THROW(cudaMemcpy(db.data(), b.data(), db.bytes(), cudaMemcpyHostToDevice));
    for (int v = 0; v < kMatmulKernels; ++v) {
        KC_CUDA_CHECK_THROW(cudaMemsetAsync(dc.data(), 0xFF, dc.bytes(), stream_.get())); // NaN
        matmul_multiply(v, da.data(), db.data(), dc.data(), n, stream_.get());
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
        std::vector<float> got(c.size());
        KC_CUDA_CHECK_THROW(cudaMemcpy(got.data(), dc.data(), dc.bytes(), cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (std::size_t i = 0; i < got.size(); ++i) num += (got[i] - c[i]) * (got[i] - c[i]), den += c[i] * c[i];
        EXPECT_LT(std::sqrt(num / den), 1e-5) << MatmulOp::variant_names[v]; // a NaN left anywhere fails too
    }
}

// The tiled stencils' 16-byte path (a width that is a multiple of 4, inner blocks staged with
// 16-byte loads) and their edge blocks, at sizes whose last block is partial in x and y.
TEST_F(GpuOps, TiledStencilsEqualTheReferenceAtWidthsOfFour) {
    for (auto [w, h] : {std::pair{200, 70}, {324, 37}, {68, 20}, {4, 3}}) {
        const auto a = ref::random_image(w, h, 17);
        OpParams p;
        p.variant = 1, p.radius = 2;
        EXPECT_EQ(paint_gpu("box_blur", a, nullptr, p), ref::box_blur(a, 2).px) << w << "x" << h;
        EXPECT_EQ(paint_gpu("sobel", a, nullptr, p), ref::sobel(a).px) << w << "x" << h;
    }
}

} // namespace
} // namespace kc
