// Checked mode of the user's kernel without a GPU: the signature rewrite (word for word, no line
// moved), the code students write today compiling against the checked views (NVRTC needs no GPU),
// the violation in words, and the writer record's decoding.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gpu/kernel_check.h"
#include "gpu/kernel_source.h"
#include "gpu/user_kernel.h"

namespace kc {
namespace {

constexpr ComputeCapability kH200{9, 0};

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(CheckedSignature, ChangesOnlyTheSignaturesWordsAndMovesNoLineOrColumn) {
    const std::string source = "// paint(Pixel* out) in a comment stays\n"
                               "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
                               "const Pixel* b, float t) {\n"
                               "    const char* s = \"paint(Pixel* out)\";\n"
                               "    out[0] = a[0];\n"
                               "}\n";
    const CheckedSignature c = checked_signature(source);
    ASSERT_FALSE(c.refusal) << *c.refusal;
    EXPECT_EQ(c.source, "// paint(Pixel* out) in a comment stays\n"
                        "           __device__ __forceinline__ void paint( KcOut out, int width, int height, KcIn a  "
                        "      , KcIn b        , float t) {\n"
                        "    const char* s = \"paint(Pixel* out)\";\n"
                        "    out[0] = a[0];\n"
                        "}\n");
    EXPECT_EQ(c.source.size(), source.size() + std::string(" __forceinline__").size());
}

TEST(CheckedSignature, ASignatureOverSeveralLinesKeepsItsLineBreaks) {
    const std::string source =
        "extern \"C\"\n__global__ void paint(Pixel *__restrict__ out,\n int width, int height,\n"
        "  const Pixel* __restrict__ a, const Pixel *b,\n float t)\n{ store(out, 0, load(b, 0)); }\n";
    const CheckedSignature c = checked_signature(source);
    ASSERT_FALSE(c.refusal) << *c.refusal;
    EXPECT_EQ(lines(c.source), lines(source));
    EXPECT_NE(c.source.find("KcOut out"), std::string::npos) << c.source;
    EXPECT_NE(c.source.find("KcIn a"), std::string::npos) << c.source;
    EXPECT_NE(c.source.find("KcIn b"), std::string::npos) << c.source;
    EXPECT_EQ(c.source.find("__global__"), std::string::npos) << c.source;
}

TEST(CheckedSignature, AnotherSignatureIsRefusedOnItsLineNamingRawMode) {
    for (const char* bad : {"\n\nextern \"C\" __global__ void paint(Pixel* out, int width) {}\n",
                            "\n\n__global__ void paint(const Pixel* out, int w, int h, const Pixel* a, const Pixel* b, "
                            "float t) {}\n",
                            "\n\n__global__ void paint(unsigned* out, int w, int h, const Pixel* a, const Pixel* b, "
                            "float t) {}\n"}) {
        const CheckedSignature c = checked_signature(bad);
        ASSERT_TRUE(c.refusal) << bad;
        EXPECT_EQ(c.refusal_line, 3) << bad;
        EXPECT_NE(c.refusal->find("--kernel-mode raw"), std::string::npos) << *c.refusal;
    }
    const CheckedSignature none = checked_signature("__device__ void paint(int x) {}\n");
    ASSERT_TRUE(none.refusal);
    EXPECT_NE(none.refusal->find("no kernel named paint"), std::string::npos) << *none.refusal;
}

TEST(CheckedSignature, ThePreludeSaysWhatIsCheckedAndWhatIsNot) {
    const std::string checked = user_kernel_prelude(KernelMode::Checked);
    EXPECT_NE(checked.find("bounds-checked"), std::string::npos);
    EXPECT_NE(checked.find("Not checked: raw pointers"), std::string::npos);
    EXPECT_NE(checked.find("struct KcOut"), std::string::npos);
    const std::string raw = user_kernel_prelude(KernelMode::Raw);
    EXPECT_NE(raw.find("extern \"C\" __global__ void paint("), std::string::npos);
    EXPECT_EQ(raw.find("KcOut"), std::string::npos);
}

class CheckedNvrtc : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = nvrtc_unavailable_reason()) GTEST_SKIP() << *why;
    }
};

bool holds(const std::vector<char>& image, std::string_view symbol) {
    return std::search(image.begin(), image.end(), symbol.begin(), symbol.end()) != image.end();
}

TEST_F(CheckedNvrtc, EveryStarterCompilesInBothModesWithItsModesEntry) {
    for (const StarterKernel& s : starter_kernels()) {
        for (KernelMode mode : kKernelModes) {
            const KernelCompile k = compile_user_kernel(s.source, kH200, std::string(s.name) + ".cu", mode);
            ASSERT_TRUE(k.ok) << s.name << " " << to_string(mode) << "\n" << k.log;
            EXPECT_EQ(k.mode, mode);
            EXPECT_TRUE(holds(k.image, kernel_entry(mode))) << s.name << " " << to_string(mode);
        }
    }
}

TEST_F(CheckedNvrtc, TheWaysStudentsWriteTodayCompileAgainstTheViews) {
    const std::string source =
        "void helper(Pixel* o, int i) { o[i] = make_pixel(1, 2, 3); }\n"
        "extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, "
        "float t) {\n"
        "    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    const int i = y * width + x;\n"
        "    out[i] = a[i];\n"
        "    out[y * width + x].r = 255;\n"
        "    out[(unsigned)i].g += 1;\n"
        "    out[(long long)i] = mix(load(a, i), b[(size_t)i], 0.5f);\n"
        "    store(out, i, load(b, i));\n"
        "    out(x, y) = a(x, y);\n"
        "    Pixel& p = out[i]; p.b = 7;\n"
        "    Pixel* raw = out.data(); raw[i] = load(out, i);\n"
        "    *(out + i) = b(x, y);\n"
        "    helper(out, i);\n"
        "    if (out.size() != 1LL * out.width * out.height) out[0] = make_pixel_f(t, 0, 0);\n"
        "}\n";
    const KernelCompile k = compile_user_kernel(source, kH200, "today.cu", KernelMode::Checked);
    EXPECT_TRUE(k.ok) << k.log;
    EXPECT_TRUE(compile_user_kernel(source, kH200, "today.cu", KernelMode::Raw).ok == false)
        << "raw mode has no out.data(), out(x, y) or out.size(): the source above is checked mode's";
}

KcViolation violation(int write, int image, long long index, unsigned bx, unsigned by, unsigned tx, unsigned ty,
                      unsigned bdx, unsigned bdy) {
    KcViolation v{};
    v.claimed = 1, v.write = write, v.image = image, v.index = index, v.x = v.y = KC_NO_XY;
    v.block[0] = bx, v.block[1] = by, v.thread[0] = tx, v.thread[1] = ty;
    v.block_dim[0] = bdx, v.block_dim[1] = bdy, v.block_dim[2] = 1;
    return v;
}

TEST(KernelViolations, TheFirstIsNamedWithTheThreadAndTheNumbers) {
    // Block (50,20): thread (12,3) of block (16,7) has x = 812 on an 800-wide canvas.
    KernelViolations v{1, violation(1, 0, 641000, 16, 7, 12, 3, 50, 20), 800, 800};
    EXPECT_EQ(describe(v), "thread (12,3) of block (16,7) wrote out[641000]: past the end (800x800 = 640000 pixels); "
                           "its x = blockIdx.x*blockDim.x + threadIdx.x = 812 >= width 800");
    v.count = 4864;
    EXPECT_NE(describe(v).find("(and 4863 more out-of-range accesses this frame)"), std::string::npos);

    KernelViolations below{1, violation(0, 1, -5, 0, 0, 3, 0, 32, 8), 64, 64};
    EXPECT_EQ(describe(below), "thread (3,0) of block (0,0) read a[-5]: before the start (indices run from 0 to "
                               "4095); its x = 3 and y = 0 are inside the canvas, so the index is not y*width + x = 3");
    KernelViolations xy{1, violation(1, 0, 0, 1, 2, 0, 0, 32, 8), 64, 48};
    xy.first.x = 70, xy.first.y = 10;
    EXPECT_EQ(describe(xy), "thread (0,0) of block (1,2) wrote out(70, 10): x = 70 is outside 0..63");
    EXPECT_EQ(describe(KernelViolations{}), "");
}

TEST(WriterRecord, ADecodedWordIsTheThreadThatTheKernelsNumberingEncoded) {
    std::mt19937 rng(26);
    for (int n = 0; n < 2000; ++n) {
        const Dim3 block{1 + int(rng() % 64), 1 + int(rng() % 16), 1 + int(rng() % 2)};
        const Dim3 grid{1 + int(rng() % 100), 1 + int(rng() % 100), 1 + int(rng() % 3)};
        const unsigned bx = rng() % grid.x, by = rng() % grid.y, bz = rng() % grid.z;
        const unsigned tx = rng() % block.x, ty = rng() % block.y, tz = rng() % block.z;
        // The prelude's numbering (checked.cuh, kc_note_writer), written out independently.
        const unsigned long long block_number = (1ULL * bz * grid.y + by) * grid.x + bx;
        const unsigned long long thread_number = (1ULL * tz * block.y + ty) * block.x + tx;
        const unsigned writers = 1 + rng() % 15;
        const unsigned word = writers << 28 | unsigned(block_number * block.count() + thread_number + 1);
        const RecordedWriter w = decode_writer(word, block, grid);
        ASSERT_TRUE(w.written);
        EXPECT_EQ(w.writers, writers);
        EXPECT_EQ(w.block_in_launch, block_number);
        EXPECT_EQ(w.thread_in_block, thread_number);
        EXPECT_EQ((std::array{w.thread.bx, w.thread.by, w.thread.bz, w.thread.tx, w.thread.ty, w.thread.tz}),
                  (std::array{bx, by, bz, tx, ty, tz}));
        EXPECT_EQ(w.thread.gdx, unsigned(grid.x));
        EXPECT_EQ(w.thread.bdy, unsigned(block.y));
    }
    EXPECT_FALSE(decode_writer(0u, Dim3{32, 8, 1}, Dim3{2, 2, 1}).written);
}

TEST(WriterRecord, UnwrittenPixelsAreHatchedAndRepeatsTinted) {
    const Dim3 block{2, 1, 1}, grid{2, 1, 1};
    // A 4x1 canvas: pixel 0 by thread 0 of block 0, pixel 1 by two threads, pixel 2 unwritten,
    // pixel 3 by thread 1 of block 1.
    const unsigned words[4] = {1u << 28 | 1u, 2u << 28 | 2u, 0u, 1u << 28 | 4u};
    const unsigned block_sm[2] = {5, 9};
    const Pixel shown{10, 20, 30, 255};
    EXPECT_EQ(recorded_pixel(View::Pixels, words, 4, 1, 2, 0, shown, block, grid, block_sm, 2, {}),
              uncovered_pixel(2, 0));
    EXPECT_EQ(recorded_pixel(View::Pixels, words, 4, 1, 0, 0, shown, block, grid, block_sm, 2, {}), shown);
    const Pixel tinted =
        recorded_pixel(View::Pixels, words, 4, 1, 1, 0, shown, block, grid, block_sm, 2, {true, false});
    EXPECT_GT(tinted.r, shown.r);
    EXPECT_EQ(recorded_pixel(View::Pixels, words, 4, 1, 0, 0, shown, block, grid, block_sm, 2, {true, false}), shown);
    const ThreadCoords t{1, 0, 0, 1, 0, 0, 2, 1, 1, 2, 1, 1};
    EXPECT_EQ(recorded_pixel(View::Sm, words, 4, 1, 3, 0, shown, block, grid, block_sm, 2, {}),
              view_colour(View::Sm, t, 9));
    EXPECT_EQ(recorded_pixel(View::Lane, words, 4, 1, 3, 0, shown, block, grid, block_sm, 2, {}), lane_colour(1));
}

// The inspected pixel's block gets a yellow edge in the colour pass: an 8x4 canvas written by two
// blocks of 4x4 threads (the left and right halves, in 2d), inspected at (5, 1) in the right one.
TEST(WriterRecord, TheInspectedPixelsBlockIsOutlinedAndNoOtherPixel) {
    const int w = 8, h = 4;
    const Dim3 block{4, 4, 1}, grid{2, 1, 1};
    std::vector<unsigned> words(std::size_t(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned b = unsigned(x / 4), t = unsigned(y * 4 + x % 4);
            words[std::size_t(y) * w + x] = 1u << 28 | (b * 16 + t + 1);
        }
    const unsigned block_sm[2] = {0, 0};
    const Pixel shown{10, 20, 30, 255}, yellow = make_pixel(255, 230, 0);
    WriterMarks marks;
    marks.outline_x = 5, marks.outline_y = 1;
    std::string seen;
    for (int y = 0; y < h; ++y, seen += '\n')
        for (int x = 0; x < w; ++x) {
            const Pixel p =
                recorded_pixel(View::Pixels, words.data(), w, h, x, y, shown, block, grid, block_sm, 2, marks);
            seen += p == yellow ? 'Y' : p == shown ? '.' : '?';
        }
    EXPECT_EQ(seen, "....YYYY\n....Y..Y\n....Y..Y\n....YYYY\n");
    marks.outline_x = -1;
    EXPECT_EQ(recorded_pixel(View::Pixels, words.data(), w, h, 5, 0, shown, block, grid, block_sm, 2, marks), shown);
}

} // namespace
} // namespace kc
