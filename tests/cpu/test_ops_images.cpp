// The image operations on the CPU backend against independent references (reference_ops.h), and
// image files in and out. Exact unless a test says "within 1" (float rounding in the op).
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpu/cpu_emulator.h"
#include "gpu/ops/op_list.h"
#include "gpu/registry.h"
#include "render/io/image_io.h"
#include "render/io/source_images.h"
#include "tests/support/poison.h"
#include "tests/support/reference_ops.h"

namespace kc {
namespace {

using test::kPoison;

struct CpuRun {
    std::vector<Pixel> pixels;
    OpOutputs outputs;
};

// Paints `op` over the images on the CPU backend, into a poisoned buffer.
CpuRun paint_cpu(std::string_view op, const ref::Img& a, const ref::Img* b = nullptr, OpParams p = {},
                 LaunchConfig launch = {}) {
    PaintJob job;
    const OpInfo* info = find_op(op);
    EXPECT_NE(info, nullptr) << op;
    job.op = info->index;
    p.width = a.w, p.height = a.h;
    p.src_a = a.px.data();
    p.src_b = b ? b->px.data() : nullptr;
    job.params = p;
    job.launch = launch;
    CpuRun r{std::vector<Pixel>(a.px.size(), kPoison), {}};
    const auto error = CpuGridEmulator(2).paint(job, r.pixels.data(), &r.outputs);
    EXPECT_FALSE(error) << *error;
    return r;
}

// Odd sizes: neither a multiple of 16 nor of the default block.
constexpr int kW = 67, kH = 45;

TEST(OpsCpu, RegistryHasTheImageOps) {
    for (const char* name : {"grayscale", "invert", "add", "blend", "threshold", "box_blur", "sobel", "histogram",
                             "mandelbrot", "julia", "matmul"})
        EXPECT_NE(find_op(name), nullptr) << name;
    EXPECT_TRUE(find_op("sobel")->custom);
    EXPECT_FALSE(find_op("grayscale")->custom);
    EXPECT_NE(find_op("box_blur")->cpu_paint, nullptr);
}

TEST(OpsCpu, GrayscaleExact) {
    const auto a = ref::random_image(kW, kH, 1);
    EXPECT_EQ(paint_cpu("grayscale", a).pixels, ref::grayscale(a).px);
}

TEST(OpsCpu, GrayscaleExactWithEveryMapping) {
    const auto a = ref::random_image(kW, kH, 11);
    for (Mapping m : kAllMappings) {
        LaunchConfig l;
        l.block = {50, 4, 1};
        l.mapping = m;
        EXPECT_EQ(paint_cpu("grayscale", a, nullptr, {}, l).pixels, ref::grayscale(a).px) << mapping_name(m);
    }
}

TEST(OpsCpu, InvertExact) {
    const auto a = ref::random_image(kW, kH, 2);
    EXPECT_EQ(paint_cpu("invert", a).pixels, ref::invert(a).px);
}

TEST(OpsCpu, AddSaturatesExact) {
    const auto a = ref::random_image(kW, kH, 3), b = ref::random_image(kW, kH, 4);
    EXPECT_EQ(paint_cpu("add", a, &b).pixels, ref::add(a, b).px);
}

TEST(OpsCpu, ThresholdExactAtSeveralLevels) {
    const auto a = ref::random_image(kW, kH, 5);
    for (int level : {0, 1, 128, 200, 255, 256}) {
        OpParams p;
        p.level = level;
        EXPECT_EQ(paint_cpu("threshold", a, nullptr, p).pixels, ref::threshold(a, level).px) << level;
    }
}

TEST(OpsCpu, BlendOfTwoImagesWithinOneLevel) { // float w*A + (1-w)*B in the op, double here
    const auto a = ref::random_image(kW, kH, 6), b = ref::random_image(kW, kH, 7);
    for (float w : {0.0f, 0.25f, 0.75f, 1.0f}) {
        OpParams p;
        p.weight = w;
        EXPECT_LE(ref::max_diff(paint_cpu("blend", a, &b, p).pixels, ref::blend(a, b, w).px), 1) << w;
    }
}

TEST(OpsCpu, BlendWithoutImagesIsGradientAndCheckerboard) {
    PaintJob job;
    job.op = find_op("blend")->index;
    job.params.width = 40, job.params.height = 30, job.params.cell = 8;
    std::vector<Pixel> out(40 * 30, kPoison);
    ASSERT_FALSE(CpuGridEmulator(1).paint(job, out.data()));
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) {
            const int gb = 255 - 255 * y / 30, gg = 255 - 255 * x / 40, gr = 128 - 128 * y / 30; // gradient
            const int c = ((x / 8 + y / 8) & 1) ? 255 : 0;                                       // checkerboard
            auto mix = [](int a, int b) { return int(std::floor(0.75 * a + 0.25 * b + 0.5)); };
            const Pixel q = out[y * 40 + x];
            EXPECT_LE(std::abs(q.b - mix(gb, c)), 1);
            EXPECT_LE(std::abs(q.g - mix(gg, c)), 1);
            EXPECT_LE(std::abs(q.r - mix(gr, c)), 1);
        }
}

TEST(OpsCpu, BoxBlurBothVariantsExactBordersIncluded) {
    const auto a = ref::blobby_image(kW, kH, 8);
    for (int r : {0, 1, 3, 16}) {
        const auto expected = ref::box_blur(a, r).px;
        for (int v : {0, 1}) {
            OpParams p;
            p.radius = r, p.variant = v;
            EXPECT_EQ(paint_cpu("box_blur", a, nullptr, p).pixels, expected) << "radius " << r << " variant " << v;
        }
    }
}

TEST(OpsCpu, BoxBlurOnATinyImageClampsEverywhere) {
    const auto a = ref::random_image(3, 2, 9);
    OpParams p;
    p.radius = 5;
    EXPECT_EQ(paint_cpu("box_blur", a, nullptr, p).pixels, ref::box_blur(a, 5).px);
}

TEST(OpsCpu, SobelBothVariantsExactBordersIncluded) {
    const auto a = ref::blobby_image(kW, kH, 10);
    const auto expected = ref::sobel(a).px;
    for (int v : {0, 1}) {
        OpParams p;
        p.variant = v;
        EXPECT_EQ(paint_cpu("sobel", a, nullptr, p).pixels, expected) << "variant " << v;
    }
}

TEST(OpsCpu, HistogramBothVariantsCountEveryPixel) {
    const auto a = ref::random_image(kW, kH, 12);
    const auto expected = ref::histogram(a);
    for (int v : {0, 1}) {
        OpParams p;
        p.variant = v;
        const CpuRun r = paint_cpu("histogram", a, nullptr, p);
        ASSERT_TRUE(r.outputs.has_histogram);
        EXPECT_EQ(r.outputs.histogram, expected) << "variant " << v;
        EXPECT_EQ(r.pixels, a.px); // the canvas shows A
    }
}

TEST(OpsCpu, MandelbrotDoubleExact) {
    OpParams p;
    p.width = 61, p.height = 47, p.use_double = true, p.max_iter = 200, p.scale = 3.0 / 61;
    PaintJob job;
    job.op = find_op("mandelbrot")->index;
    job.params = p;
    std::vector<Pixel> out(61 * 47, kPoison);
    ASSERT_FALSE(CpuGridEmulator(2).paint(job, out.data()));
    int within1 = 0;
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
            const double cx = p.center_x + (x - p.width / 2) * p.scale, cy = p.center_y + (y - p.height / 2) * p.scale;
            const Pixel want = ref::palette(ref::escape(0, 0, cx, cy, p.max_iter), p.max_iter);
            const Pixel got = out[y * p.width + x];
            // Iterations exact in double; the palette is float in the op, double here: within 1.
            within1 += ref::max_diff({got}, {want}) <= 1;
        }
    EXPECT_EQ(within1, p.width * p.height);
}

TEST(OpsCpu, JuliaFloatMatchesDoubleReferenceAlmostEverywhere) {
    // Float iteration diverges from double near the set's boundary: allow 2% of pixels to differ.
    OpParams p;
    p.width = 64, p.height = 48, p.max_iter = 100, p.center_x = 0, p.scale = 3.0 / 64;
    PaintJob job;
    job.op = find_op("julia")->index;
    job.params = p;
    std::vector<Pixel> out(64 * 48, kPoison);
    ASSERT_FALSE(CpuGridEmulator(2).paint(job, out.data()));
    int bad = 0;
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
            const double zx = (x - 32) * p.scale, zy = (y - 24) * p.scale;
            const Pixel want = ref::palette(ref::escape(zx, zy, p.julia_re, p.julia_im, p.max_iter), p.max_iter);
            bad += ref::max_diff({out[y * p.width + x]}, {want}) > 1;
        }
    EXPECT_LE(bad, p.width * p.height / 50);
}

TEST(OpsCpu, MatmulRelativeErrorAgainstDouble) {
    const int n = 64;
    OpParams p;
    p.width = 32, p.height = 32, p.matmul_n = n;
    PaintJob job;
    job.op = find_op("matmul")->index;
    job.params = p;
    std::vector<Pixel> out(32 * 32, kPoison);
    OpOutputs o;
    ASSERT_FALSE(CpuGridEmulator(2).paint(job, out.data(), &o));
    ASSERT_EQ(o.matmul_c.size(), std::size_t(n) * n);
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double c = 0;
            for (int k = 0; k < n; ++k) c += double(matmul_input(i, k, n, 0)) * matmul_input(k, j, n, 1);
            num += (c - o.matmul_c[i * n + j]) * (c - o.matmul_c[i * n + j]);
            den += c * c;
        }
    EXPECT_LT(std::sqrt(num / den), 1e-5);
    for (Pixel q : out) EXPECT_EQ(q.a, 255); // every pixel painted
}

TEST(OpsCpu, OutOfRangeParametersAreRefused) {
    const auto a = ref::random_image(8, 8, 13);
    PaintJob job;
    job.params.width = 8, job.params.height = 8, job.params.src_a = a.px.data();
    std::vector<Pixel> out(64, kPoison);
    auto refused = [&](const char* op, auto&& tweak) {
        PaintJob j = job;
        j.op = find_op(op)->index;
        tweak(j.params);
        return CpuGridEmulator(1).paint(j, out.data()).has_value();
    };
    EXPECT_TRUE(refused("box_blur", [](OpParams& p) { p.radius = 17; }));
    EXPECT_TRUE(refused("box_blur", [](OpParams& p) { p.radius = -1; }));
    EXPECT_TRUE(refused("matmul", [](OpParams& p) { p.matmul_n = 100; }));
    EXPECT_TRUE(refused("mandelbrot", [](OpParams& p) { p.max_iter = 0; }));
    EXPECT_TRUE(refused("threshold", [](OpParams& p) { p.level = 300; }));
    for (Pixel q : out) EXPECT_EQ(q, kPoison); // refused: untouched
}

// ---- image files ----------------------------------------------------------------------------

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() /
               ("kc_images_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }
std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

TEST(ImageFiles, PngRoundTripExact) {
    TempDir dir;
    const auto a = ref::random_image(37, 23, 20);
    ASSERT_FALSE(write_image(dir / "a.png", a.w, a.h, a.px));
    Image back;
    ASSERT_FALSE(load_image(dir / "a.png", back));
    EXPECT_EQ(back.width, 37);
    EXPECT_EQ(back.height, 23);
    EXPECT_EQ(back.pixels, a.px);
}

TEST(ImageFiles, BmpAndTgaLoadExactJpegClose) {
    TempDir dir;
    const auto a = ref::random_image(16, 9, 21);
    std::vector<unsigned char> rgb;
    for (Pixel p : a.px) rgb.insert(rgb.end(), {p.r, p.g, p.b});
    ASSERT_TRUE(stbi_write_bmp((dir / "a.bmp").c_str(), 16, 9, 3, rgb.data()));
    ASSERT_TRUE(stbi_write_tga((dir / "a.tga").c_str(), 16, 9, 3, rgb.data()));
    for (const char* name : {"a.bmp", "a.tga"}) {
        Image back;
        ASSERT_FALSE(load_image(dir / name, back)) << name;
        EXPECT_EQ(back.pixels, a.px) << name;
    }
    // A smooth picture survives JPEG within a few levels.
    ref::Img smooth{32, 32, std::vector<Pixel>(32 * 32)};
    for (int i = 0; i < 32 * 32; ++i) smooth.px[i] = ref::rgb(i % 32 * 4, i / 32 * 4, 100);
    ASSERT_FALSE(write_image(dir / "s.jpg", 32, 32, smooth.px));
    Image back;
    ASSERT_FALSE(load_image(dir / "s.jpg", back));
    EXPECT_LE(ref::max_diff(back.pixels, smooth.px), 12);
}

TEST(ImageFiles, SampleAssetsLoad) {
    for (const char* name : {"logo.png", "rose.jpg"}) {
        Image im;
        EXPECT_FALSE(load_image(std::string(KC_ASSETS) + "/" + name, im)) << name;
        EXPECT_GT(im.width, 0);
    }
}

// Every bad file gives a message naming the problem and leaves the output untouched.
TEST(ImageFiles, BadFilesAreRefusedWithAReason) {
    TempDir dir;
    const auto a = ref::random_image(64, 64, 22);
    ASSERT_FALSE(write_image(dir / "good.png", 64, 64, a.px));
    const std::string png = read_bytes(dir / "good.png");
    write_bytes(dir / "empty.png", "");
    write_bytes(dir / "text.png", "this is not an image, just some words\n");
    write_bytes(dir / "truncated.png", png.substr(0, png.size() / 2));
    std::string corrupt = png;
    for (std::size_t i = 60; i < corrupt.size() - 20; ++i) corrupt[i] = char(i * 7);
    write_bytes(dir / "corrupt.png", corrupt);
    // A BMP header that claims 20000 x 20000 pixels, with no pixel data: refused before decoding.
    std::string bmp(54, '\0');
    auto put32 = [&](int at, std::uint32_t v) {
        for (int k = 0; k < 4; ++k) bmp[at + k] = char(v >> (8 * k));
    };
    bmp[0] = 'B', bmp[1] = 'M';
    put32(2, 54), put32(10, 54), put32(14, 40), put32(18, 20000), put32(22, 20000);
    bmp[26] = 1, bmp[28] = 24;
    write_bytes(dir / "huge.bmp", bmp);
    // A real but too wide PNG (16385 x 1).
    std::vector<Pixel> row(16385, Pixel{1, 2, 3, 255});
    ASSERT_FALSE(write_image(dir / "wide.png", 16385, 1, row));

    const std::vector<std::pair<std::string, std::string>> cases{{dir / "missing.png", "no such file"},
                                                                 {dir / "empty.png", "empty"},
                                                                 {dir / "text.png", "not an image"},
                                                                 {dir / "truncated.png", "corrupt or truncated"},
                                                                 {dir / "corrupt.png", "corrupt or truncated"},
                                                                 {dir / "huge.bmp", "too large"},
                                                                 {dir / "wide.png", "too large"},
                                                                 {dir.path.string(), "directory"}};
    for (const auto& [path, why] : cases) {
        Image im;
        im.width = 7;
        const auto error = load_image(path, im);
        ASSERT_TRUE(error) << path;
        EXPECT_NE(error->find(why), std::string::npos) << *error;
        EXPECT_EQ(im.width, 7) << "untouched on failure: " << path;
    }
}

TEST(ImageFiles, FitIsNearestNeighbourOfPixelCentres) {
    Image im{4, 2, {}};
    for (int i = 0; i < 8; ++i) im.pixels.push_back(Pixel{uint8_t(i), 0, 0, 255});
    const auto up = fit_image(im, 8, 4); // each source pixel becomes 2x2
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 8; ++x) EXPECT_EQ(up[y * 8 + x].b, (y / 2) * 4 + x / 2);
    const auto down = fit_image(im, 2, 1); // centres 1 and 3 of row 1
    EXPECT_EQ(down[0].b, 5);
    EXPECT_EQ(down[1].b, 7);
}

TEST(ImageFiles, FailedLoadKeepsTheCurrentImage) {
    TempDir dir;
    const auto a = ref::random_image(10, 10, 23);
    ASSERT_FALSE(write_image(dir / "a.png", 10, 10, a.px));
    SourceImages s;
    s.fit(10, 10);
    ASSERT_FALSE(s.load(0, dir / "a.png"));
    const auto generation = s.generation();
    EXPECT_TRUE(s.load(0, dir / "nope.png"));
    EXPECT_EQ(s.generation(), generation);
    ASSERT_TRUE(s.loaded(0));
    EXPECT_EQ(std::vector<Pixel>(s.fitted(0), s.fitted(0) + 100), a.px);
    s.fit(20, 5); // refit on canvas resize
    EXPECT_NE(s.generation(), generation);
    EXPECT_EQ(s.fitted(0)[0], a.px[10]); // (0.5*10/20, 0.5*10/5) = source (0, 1)
}

// ---- the kcanvas binary, headless --------------------------------------------------------------

int run_kcanvas(const std::string& args) {
    const int status = std::system(
        (std::string(KCANVAS_BIN) + " --headless --backend cpu --frames 1 " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Headless, BadImageExitsWithTwo) {
    TempDir dir;
    write_bytes(dir / "bad.png", "garbage");
    EXPECT_EQ(run_kcanvas("--op grayscale --image " + dir / "bad.png"), 2);
    EXPECT_EQ(run_kcanvas("--op grayscale --image " + dir / "missing.png"), 2);
    EXPECT_EQ(run_kcanvas("--op add --image " + std::string(KC_ASSETS) + "/logo.png --image2 " + dir / "bad.png"), 2);
}

TEST(Headless, ImageSetsTheCanvasSizeUnlessSizeIsGiven) {
    TempDir dir;
    const auto a = ref::random_image(33, 21, 24);
    ASSERT_FALSE(write_image(dir / "in.png", 33, 21, a.px));
    ASSERT_EQ(run_kcanvas("--op invert --image " + dir / "in.png" + " --out " + dir / "out.png"), 0);
    Image out;
    ASSERT_FALSE(load_image(dir / "out.png", out));
    EXPECT_EQ(out.width, 33);
    EXPECT_EQ(out.height, 21);
    EXPECT_EQ(out.pixels, ref::invert(a).px);
    ASSERT_EQ(run_kcanvas("--op invert --size 66x42 --image " + dir / "in.png" + " --out " + dir / "big.png"), 0);
    ASSERT_FALSE(load_image(dir / "big.png", out));
    EXPECT_EQ(out.width, 66);
    EXPECT_EQ(out.pixels[0], ref::invert(a).px[0]);
}

} // namespace
} // namespace kc
