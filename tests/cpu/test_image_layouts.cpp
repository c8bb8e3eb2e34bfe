// BMP and TGA files written byte by byte here, with pixels the test chose (an expectation that
// owes nothing to a decoder): top-down BMPs decode, RLE BMPs are named, every truncation of an
// uncompressed BMP and an RLE TGA is refused, a BMP cut short while it is read is refused, and
// small files that declare a huge size (RLE TGA, PNG, baseline JPEG) are refused from their bytes
// before any pixel memory is allocated (issue 24, items 10-12).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "render/io/image_io.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("kc_layouts_" + std::to_string(::getpid()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

void put_le(std::string& s, long long v, int bytes) {
    for (int i = 0; i < bytes; ++i) s += char((v >> (8 * i)) & 0xff);
}

// The test's picture: every pixel differs from its neighbours in every channel.
Pixel pattern(int x, int y) {
    return Pixel{(unsigned char)(7 + x * y * 3), (unsigned char)(y * 50), (unsigned char)(x * 40 + 1), 255};
}
std::vector<Pixel> pattern_pixels(int w, int h) {
    std::vector<Pixel> px;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) px.push_back(pattern(x, y));
    return px;
}

// A 24-bit BMP of the pattern: rows bottom first, or top first with a negative height.
std::string bmp24(int w, int h, bool top_down) {
    const int stride = (w * 3 + 3) / 4 * 4;
    std::string s = "BM";
    put_le(s, 54 + stride * h, 4);
    put_le(s, 0, 4);
    put_le(s, 54, 4);
    put_le(s, 40, 4);
    put_le(s, w, 4);
    put_le(s, top_down ? -h : h, 4);
    put_le(s, 1, 2);
    put_le(s, 24, 2);
    put_le(s, 0, 4); // BI_RGB
    put_le(s, stride * h, 4);
    put_le(s, 2835, 4);
    put_le(s, 2835, 4);
    put_le(s, 0, 4);
    put_le(s, 0, 4);
    for (int r = 0; r < h; ++r) {
        const int y = top_down ? r : h - 1 - r;
        std::string row;
        for (int x = 0; x < w; ++x) row += {char(pattern(x, y).b), char(pattern(x, y).g), char(pattern(x, y).r)};
        row.resize(std::size_t(stride), '\0');
        s += row;
    }
    return s;
}

// An 8-bit RLE8 BMP: each row one run of palette entry 1.
std::string bmp_rle8(int w, int h) {
    std::string pixels;
    for (int y = 0; y < h; ++y) pixels += {char(w), char(1), char(0), char(0)}; // run, end of line
    pixels += {char(0), char(1)};                                               // end of bitmap
    const int offset = 54 + 256 * 4;
    std::string s = "BM";
    put_le(s, offset + (long long)pixels.size(), 4);
    put_le(s, 0, 4);
    put_le(s, offset, 4);
    put_le(s, 40, 4);
    put_le(s, w, 4);
    put_le(s, h, 4);
    put_le(s, 1, 2);
    put_le(s, 8, 2);
    put_le(s, 1, 4); // BI_RLE8
    put_le(s, (long long)pixels.size(), 4);
    put_le(s, 2835, 4);
    put_le(s, 2835, 4);
    put_le(s, 256, 4);
    put_le(s, 0, 4);
    for (int i = 0; i < 256; ++i) s += {char(i), char(255 - i), char(i / 2), char(0)};
    return s + pixels;
}

// A TGA header: type 2 (raw true colour) or 10 (RLE true colour), 24 bits, origin top-left.
std::string tga_header(int type, int w, int h) {
    std::string s;
    s += {char(0), char(0), char(type)};
    put_le(s, 0, 2); // palette: first entry, length, bits
    put_le(s, 0, 2);
    s += char(0);
    put_le(s, 0, 2); // origin x, y
    put_le(s, 0, 2);
    put_le(s, w, 2);
    put_le(s, h, 2);
    s += {char(24), char(0x20)}; // bits per pixel; descriptor: rows top first
    return s;
}

std::string bgr(Pixel p) { return {char(p.b), char(p.g), char(p.r)}; }

// The pattern as RLE packets: each row a raw packet of its first half, then the rest of the row
// as repeat packets of one pixel each (so that both kinds are walked).
std::string tga_rle(int w, int h) {
    std::string s = tga_header(10, w, h);
    for (int y = 0; y < h; ++y) {
        const int raw = w / 2;
        s += char(raw - 1);
        for (int x = 0; x < raw; ++x) s += bgr(pattern(x, y));
        for (int x = raw; x < w; ++x) s += char(0x80) + bgr(pattern(x, y));
    }
    return s;
}

Image load_or_fail(const std::string& path) {
    Image im;
    const auto error = load_image(path, im);
    EXPECT_FALSE(error) << *error;
    return im;
}

void expect_refused(const std::string& path, const std::string& why) {
    Image im;
    const auto error = load_image(path, im);
    ASSERT_TRUE(error) << path << " was accepted";
    EXPECT_NE(error->find(why), std::string::npos) << "expected '" << why << "' in: " << *error;
}

TEST(BmpInput, TopDownDecodesTopRowFirst) {
    TempDir dir;
    write_bytes(dir / "down.bmp", bmp24(5, 3, true));
    write_bytes(dir / "up.bmp", bmp24(5, 3, false));
    const Image down = load_or_fail(dir / "down.bmp"), up = load_or_fail(dir / "up.bmp");
    EXPECT_EQ(down.width, 5);
    EXPECT_EQ(down.height, 3);
    EXPECT_EQ(down.pixels, pattern_pixels(5, 3));
    EXPECT_EQ(up.pixels, pattern_pixels(5, 3));
}

TEST(BmpInput, RleIsNamedAsUnsupported) {
    TempDir dir;
    write_bytes(dir / "rle8.bmp", bmp_rle8(6, 4));
    expect_refused(dir / "rle8.bmp", "is an RLE8-compressed BMP, which kcanvas does not read: save it uncompressed");
}

// Every prefix of an uncompressed BMP, bottom-up and top-down, that cuts off a pixel is refused:
// none loads with black rows. (Only the last row's padding, 3 bytes here, may be missing.)
TEST(BmpInput, EveryTruncationIsRefused) {
    TempDir dir;
    for (bool top_down : {false, true}) {
        const std::string whole = bmp24(7, 5, top_down);
        for (std::size_t n = 1; n < whole.size() - 3; ++n) {
            write_bytes(dir / "cut.bmp", whole.substr(0, n));
            Image im;
            const auto error = load_image(dir / "cut.bmp", im);
            ASSERT_TRUE(error) << "top-down " << top_down << ": the first " << n << " of " << whole.size()
                               << " bytes loaded";
        }
    }
}

TEST(TgaInput, RawAndRleDecodeThePattern) {
    TempDir dir;
    std::string raw = tga_header(2, 6, 4);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 6; ++x) raw += bgr(pattern(x, y));
    write_bytes(dir / "raw.tga", raw);
    write_bytes(dir / "rle.tga", tga_rle(6, 4));
    EXPECT_EQ(load_or_fail(dir / "raw.tga").pixels, pattern_pixels(6, 4));
    EXPECT_EQ(load_or_fail(dir / "rle.tga").pixels, pattern_pixels(6, 4));
}

// Every prefix of an RLE TGA is refused, from the header alone to all but its last byte.
TEST(TgaInput, EveryTruncationOfAnRleFileIsRefused) {
    TempDir dir;
    const std::string whole = tga_rle(9, 6);
    for (std::size_t n = 1; n < whole.size(); ++n) {
        write_bytes(dir / "cut.tga", whole.substr(0, n));
        Image im;
        const auto error = load_image(dir / "cut.tga", im);
        ASSERT_TRUE(error) << "the first " << n << " of " << whole.size() << " bytes loaded";
    }
    write_bytes(dir / "cut.tga", whole.substr(0, 60));
    expect_refused(dir / "cut.tga", "is corrupt or truncated (TGA: its RLE data ends after");
}

// Peak memory and time of refusing `path`, which must name its declared size and its file size.
void expect_refused_cheaply(const std::string& path, const std::string& why) {
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto t0 = std::chrono::steady_clock::now();
    expect_refused(path, why);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    getrusage(RUSAGE_SELF, &after);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024) << "kB more at peak";
    EXPECT_LT(seconds, 1.0);
}

// 44 KB of RLE packets cannot hold 16384 x 16384 pixels (at most 128 pixels per 4 bytes).
TEST(TgaInput, SmallRleFileDeclaringAHugeSizeIsRefusedBeforeDecoding) {
    TempDir dir;
    std::string s = tga_header(10, 16384, 16384);
    while (s.size() < 44 * 1024) s += std::string{char(0xff), char(1), char(2), char(3)}; // 128 pixels each
    write_bytes(dir / "forged.tga", s);
    expect_refused_cheaply(dir / "forged.tga", "declares 16384 x 16384 pixels, more than its " +
                                                   std::to_string(s.size()) + " bytes can hold");
}

// A 69-byte PNG declaring 16384 x 16384 RGB: IHDR, an IDAT of 64 zero bytes deflated, IEND.
TEST(PngInput, SmallFileDeclaringAHugeSizeIsRefusedBeforeDecoding) {
    TempDir dir;
    const unsigned char png[] = {0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
                                 0x44, 0x52, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x08, 0x02, 0x00, 0x00,
                                 0x00, 0x26, 0xaa, 0x87, 0xd3, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78,
                                 0xda, 0x63, 0x60, 0xa0, 0x0c, 0x00, 0x00, 0x00, 0x40, 0x00, 0x01, 0x89, 0xc9, 0xaf,
                                 0x43, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
    write_bytes(dir / "forged.png", std::string(reinterpret_cast<const char*>(png), sizeof png));
    expect_refused_cheaply(dir / "forged.png", "declares 16384 x 16384 pixels, more than its 69 bytes can hold");
}

// A 629-byte baseline JPEG declaring 16384 x 16384: a small file's frame header patched, its
// entropy-coded data cut to 20 bytes.
TEST(JpegInput, SmallFileDeclaringAHugeSizeIsRefusedBeforeDecoding) {
    TempDir dir;
    ASSERT_FALSE(write_image(dir / "small.jpg", 48, 32, pattern_pixels(48, 32)));
    std::ifstream in(dir / "small.jpg", std::ios::binary);
    std::string jpeg{std::istreambuf_iterator<char>(in), {}};
    const std::size_t sof = jpeg.find("\xff\xc0"), sos = jpeg.find("\xff\xda");
    ASSERT_NE(sof, std::string::npos);
    ASSERT_NE(sos, std::string::npos);
    jpeg[sof + 5] = jpeg[sof + 7] = char(0x40), jpeg[sof + 6] = jpeg[sof + 8] = 0; // 16384 x 16384
    const std::size_t header = std::size_t((unsigned char)jpeg[sos + 2] << 8 | (unsigned char)jpeg[sos + 3]);
    jpeg = jpeg.substr(0, sos + 2 + header + 20) + "\xff\xd9";
    write_bytes(dir / "forged.jpg", jpeg);
    expect_refused_cheaply(dir / "forged.jpg", "declares 16384 x 16384 pixels, more than its " +
                                                   std::to_string(jpeg.size()) + " bytes can hold");
}

// A file cut short while it is read: its size said 174 bytes when it was opened, but only the
// first 100 arrive. This test's own fread (it takes the place of the C library's for the decoders
// linked into this test) stops every stream at byte `readable_bytes` while it is set.
long readable_bytes = -1;

TEST(BmpInput, FileCutShortWhileItIsReadIsRefused) {
    TempDir dir;
    write_bytes(dir / "shrinking.bmp", bmp24(7, 5, false));
    readable_bytes = 100; // the headers and a row and a half of pixels
    Image im;
    const auto error = load_image(dir / "shrinking.bmp", im);
    readable_bytes = -1;
    ASSERT_TRUE(error) << "loaded with black rows";
    EXPECT_NE(error->find("is corrupt or truncated"), std::string::npos) << *error;
}

} // namespace
} // namespace kc

extern "C" std::size_t fread(void* data, std::size_t size, std::size_t count, std::FILE* file) {
    using Fread = std::size_t (*)(void*, std::size_t, std::size_t, std::FILE*);
    static const auto real = reinterpret_cast<Fread>(::dlsym(RTLD_NEXT, "fread"));
    if (kc::readable_bytes >= 0 && size > 0) {
        const long left = std::max(0L, kc::readable_bytes - std::ftell(file));
        count = std::min(count, std::size_t(left) / size);
    }
    return real(data, size, count, file);
}
