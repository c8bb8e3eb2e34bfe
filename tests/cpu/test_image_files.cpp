// Image files in and out: PNG of every colour type and depth against known pixel values (files
// made here with libpng), JPEG against ImageMagick's decode, refusals of what kcanvas does not
// read (PNM, truncated, corrupt, too large), non-regular files, and atomic writes onto a full disk.
#include <gtest/gtest.h>
#include <png.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "app/core/kernel_files.h"
#include "render/io/atomic_file.h"
#include "render/io/image_io.h"
#include "tests/support/reference_ops.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("kc_files_" + std::to_string(::getpid()) + "_" +
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
std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Expects `load_image` to refuse `path` with a message containing `why`, leaving the image alone.
void expect_refused(const std::string& path, const std::string& why) {
    Image im;
    im.width = 7;
    const auto error = load_image(path, im);
    ASSERT_TRUE(error) << path << " was accepted";
    EXPECT_NE(error->find(why), std::string::npos) << "expected '" << why << "' in: " << *error;
    EXPECT_EQ(im.width, 7) << "untouched on failure: " << path;
}

// ---- PNG files made with libpng --------------------------------------------------------------

struct PngSpec {
    int width = 0, height = 0, colour_type = PNG_COLOR_TYPE_RGB, depth = 8;
    bool interlaced = false;
    std::vector<unsigned char> rows; // packed as in the file: big-endian 16-bit, low depths MSB first
    std::vector<png_color> palette;
    std::vector<png_byte> trns;
    bool header_only = false; // stop after IHDR: a file that claims a size and has no pixels
};

PngSpec png_spec(int width, int height, int colour_type, int depth, std::vector<unsigned char> rows = {}) {
    PngSpec s;
    s.width = width, s.height = height, s.colour_type = colour_type, s.depth = depth, s.rows = std::move(rows);
    return s;
}

// libpng longjmps on errors: only plain data lives in this frame.
bool write_png_stream(std::FILE* file, const PngSpec& s) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, s.width, s.height, s.depth, s.colour_type,
                 s.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (!s.palette.empty()) png_set_PLTE(png, info, s.palette.data(), int(s.palette.size()));
    if (!s.trns.empty()) png_set_tRNS(png, info, s.trns.data(), int(s.trns.size()), nullptr);
    png_write_info(png, info);
    if (!s.header_only) {
        const std::size_t stride = png_get_rowbytes(png, info);
        const int passes = png_set_interlace_handling(png);
        for (int pass = 0; pass < passes; ++pass)
            for (int y = 0; y < s.height; ++y) png_write_row(png, s.rows.data() + y * stride);
        png_write_end(png, nullptr);
    }
    png_destroy_write_struct(&png, &info);
    return true;
}

bool write_png(const std::string& path, const PngSpec& s) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return false;
    const bool ok = write_png_stream(file, s);
    return std::fclose(file) == 0 && ok;
}

int channels_of(int colour_type) {
    switch (colour_type) {
    case PNG_COLOR_TYPE_GRAY:
        return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        return 2;
    case PNG_COLOR_TYPE_RGB:
        return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA:
        return 4;
    default:
        return 1; // palette index
    }
}

// The 8-bit value a sample of `depth` bits stands for: 16 bits rounded, low depths stretched.
int to_8bit(unsigned v, int depth) {
    if (depth == 16) return int((v * 255u + 32767u) / 65535u);
    if (depth == 8) return int(v);
    return int(v * 255u / ((1u << depth) - 1));
}

// Packs samples[y][x * channels + c] at `depth` bits into PNG rows.
std::vector<unsigned char> pack_rows(const std::vector<unsigned>& samples, int width, int height, int channels,
                                     int depth) {
    std::vector<unsigned char> rows;
    for (int y = 0; y < height; ++y) {
        std::vector<unsigned char> row((std::size_t(width) * channels * depth + 7) / 8);
        for (int i = 0; i < width * channels; ++i) {
            const unsigned v = samples[std::size_t(y) * width * channels + i];
            if (depth == 16)
                row[2 * i] = (unsigned char)(v >> 8), row[2 * i + 1] = (unsigned char)v;
            else if (depth == 8)
                row[i] = (unsigned char)v;
            else
                row[i * depth / 8] |= (unsigned char)(v << (8 - depth - i * depth % 8));
        }
        rows.insert(rows.end(), row.begin(), row.end());
    }
    return rows;
}

struct PngCase {
    const char* name;
    int colour_type, depth;
    bool interlaced = false;
};

// Every sample differs, extremes included: 0 and the maximum come first.
std::vector<unsigned> samples_for(int count, int depth, unsigned seed) {
    std::mt19937 rng(seed);
    const unsigned max = (1u << depth) - 1;
    std::vector<unsigned> s(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) s[i] = i == 0 ? 0 : i == 1 ? max : rng() % (max + 1);
    return s;
}

// The pixels a correct decoder gives: gray copied to R, G, B; alpha dropped (input is opaque).
std::vector<Pixel> expected_pixels(const std::vector<unsigned>& s, int count, int channels, int depth) {
    std::vector<Pixel> px(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const unsigned* p = &s[std::size_t(i) * channels];
        const int r = to_8bit(p[0], depth);
        const int g = channels >= 3 ? to_8bit(p[1], depth) : r, b = channels >= 3 ? to_8bit(p[2], depth) : r;
        px[i] = ref::rgb(r, g, b);
    }
    return px;
}

TEST(PngInput, EveryColourTypeAndDepthDecodesToKnownPixels) {
    TempDir dir;
    const PngCase cases[] = {{"gray1", PNG_COLOR_TYPE_GRAY, 1},
                             {"gray2", PNG_COLOR_TYPE_GRAY, 2},
                             {"gray4", PNG_COLOR_TYPE_GRAY, 4},
                             {"gray8", PNG_COLOR_TYPE_GRAY, 8},
                             {"gray16", PNG_COLOR_TYPE_GRAY, 16},
                             {"ga8", PNG_COLOR_TYPE_GRAY_ALPHA, 8},
                             {"ga16", PNG_COLOR_TYPE_GRAY_ALPHA, 16},
                             {"rgb8", PNG_COLOR_TYPE_RGB, 8},
                             {"rgb16", PNG_COLOR_TYPE_RGB, 16},
                             {"rgba8", PNG_COLOR_TYPE_RGB_ALPHA, 8},
                             {"rgba16", PNG_COLOR_TYPE_RGB_ALPHA, 16},
                             {"rgb8-adam7", PNG_COLOR_TYPE_RGB, 8, true},
                             {"rgba16-adam7", PNG_COLOR_TYPE_RGB_ALPHA, 16, true}};
    const int w = 13, h = 7; // odd sizes: partial bytes at low depths, short interlace passes
    for (const PngCase& c : cases) {
        const int channels = channels_of(c.colour_type);
        const auto s = samples_for(w * h * channels, c.depth, unsigned(c.depth * 10 + c.colour_type));
        PngSpec spec = png_spec(w, h, c.colour_type, c.depth, pack_rows(s, w, h, channels, c.depth));
        spec.interlaced = c.interlaced;
        const std::string path = dir / (std::string(c.name) + ".png");
        ASSERT_TRUE(write_png(path, spec)) << c.name;
        Image im;
        ASSERT_FALSE(load_image(path, im)) << c.name << ": " << *load_image(path, im);
        EXPECT_EQ(im.width, w);
        EXPECT_EQ(im.height, h);
        EXPECT_EQ(im.pixels, expected_pixels(s, w * h, channels, c.depth)) << c.name;
    }
}

// All 65536 16-bit values: (v * 255 + 32767) / 65535, rounded, never truncated.
TEST(PngInput, SixteenBitsRoundToEight) {
    TempDir dir;
    std::vector<unsigned> s(65536);
    for (unsigned v = 0; v < 65536; ++v) s[v] = v;
    const PngSpec spec = png_spec(256, 256, PNG_COLOR_TYPE_GRAY, 16, pack_rows(s, 256, 256, 1, 16));
    ASSERT_TRUE(write_png(dir / "all16.png", spec));
    Image im;
    ASSERT_FALSE(load_image(dir / "all16.png", im));
    int wrong = 0;
    for (unsigned v = 0; v < 65536; ++v) {
        const int want = int((v * 255 + 32767) / 65535);
        const Pixel p = im.pixels[v];
        if (p.r != want || p.g != want || p.b != want || p.a != 255) ++wrong;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(im.pixels[128].r, 0); // 128 * 255 / 65535 = 0.498: rounds down
    EXPECT_EQ(im.pixels[129].r, 1); // 0.502: rounds up (truncation would give 0)
    EXPECT_EQ(im.pixels[65535].r, 255);
}

TEST(PngInput, PaletteWithTransparencyGivesThePaletteColours) {
    TempDir dir;
    for (int depth : {1, 2, 4, 8}) {
        const int entries = 1 << depth, w = 11, h = 5;
        PngSpec spec = png_spec(w, h, PNG_COLOR_TYPE_PALETTE, depth);
        for (int i = 0; i < entries; ++i)
            spec.palette.push_back(png_color{png_byte(i * 37 + 5), png_byte(255 - i * 11), png_byte(i * 101)});
        for (int i = 0; i < entries / 2 + 1; ++i) spec.trns.push_back(png_byte(i * 60)); // some fully transparent
        const auto index = samples_for(w * h, depth, unsigned(depth));
        spec.rows = pack_rows(index, w, h, 1, depth);
        const std::string path = dir / ("palette" + std::to_string(depth) + ".png");
        ASSERT_TRUE(write_png(path, spec));
        Image im;
        ASSERT_FALSE(load_image(path, im)) << depth;
        std::vector<Pixel> want;
        for (unsigned i : index)
            want.push_back(ref::rgb(spec.palette[i].red, spec.palette[i].green, spec.palette[i].blue));
        EXPECT_EQ(im.pixels, want) << "palette of depth " << depth;
    }
}

TEST(PngInput, TruncatedOrCorruptIsRefused) {
    TempDir dir;
    const auto a = ref::random_image(40, 30, 31);
    ASSERT_FALSE(write_image(dir / "good.png", a.w, a.h, a.px));
    const std::string png = read_bytes(dir / "good.png");
    // Every prefix, from the signature alone to all but the last byte of IEND.
    std::vector<std::size_t> cuts{png.size() - 1, png.size() - 12}; // into IEND; IEND missing
    for (std::size_t n = 8; n < png.size(); n += (n < 64 ? 1 : 97)) cuts.push_back(n);
    for (std::size_t n : cuts) {
        write_bytes(dir / "cut.png", png.substr(0, n));
        expect_refused(dir / "cut.png", "corrupt or truncated (PNG");
    }
    std::string flipped = png;
    flipped[png.size() / 2] ^= 0x55; // inside IDAT: its CRC no longer matches
    write_bytes(dir / "flipped.png", flipped);
    expect_refused(dir / "flipped.png", "CRC");
}

// A header claiming 100000 x 100000 (40 GB of pixels) is refused from the header alone.
TEST(PngInput, HugeHeaderIsTooLargeWithoutAllocating) {
    TempDir dir;
    PngSpec spec = png_spec(100000, 100000, PNG_COLOR_TYPE_RGB, 8);
    spec.header_only = true;
    ASSERT_TRUE(write_png(dir / "huge.png", spec));
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    expect_refused(dir / "huge.png", "is too large (100000 x 100000; at most 16384 x 16384)");
    getrusage(RUSAGE_SELF, &after);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 50 * 1024) << "kB more at peak";
    spec.width = 16385, spec.height = 1;
    ASSERT_TRUE(write_png(dir / "wide.png", spec));
    expect_refused(dir / "wide.png", "too large (16385 x 1;");
}

// ---- JPEG --------------------------------------------------------------------------------------

Image load_or_fail(const std::string& path) {
    Image im;
    const auto error = load_image(path, im);
    EXPECT_FALSE(error) << *error;
    return im;
}

// libjpeg-turbo's decode agrees with ImageMagick's (its files made as tests/data/README.md says).
TEST(JpegInput, DecodesCloseToImageMagick) {
    for (const std::string name : {"rose-64", "rose-64-progressive", "rose-48-gray"}) {
        const std::string data = std::string(KC_TEST_DATA) + "/" + name;
        const Image ours = load_or_fail(data + ".jpg");
        const Image theirs = load_or_fail(data + ".imagemagick.png");
        ASSERT_EQ(ours.width, theirs.width) << name;
        ASSERT_EQ(ours.height, theirs.height) << name;
        EXPECT_LE(ref::max_diff(ours.pixels, theirs.pixels), 2) << name;
        for (Pixel p : ours.pixels) ASSERT_EQ(p.a, 255) << name;
    }
}

std::string small_jpeg(const TempDir& dir) {
    const std::string path = dir / "small.jpg";
    ref::Img smooth{48, 32, std::vector<Pixel>(48 * 32)};
    for (int i = 0; i < 48 * 32; ++i) smooth.px[i] = ref::rgb(i % 48 * 5, i / 48 * 7, 90);
    EXPECT_FALSE(write_image(path, 48, 32, smooth.px));
    return read_bytes(path);
}

TEST(JpegInput, TruncatedOrCorruptIsRefused) {
    TempDir dir;
    const std::string jpeg = small_jpeg(dir);
    for (std::size_t n : {std::size_t(3), std::size_t(20), jpeg.size() / 3, jpeg.size() / 2, jpeg.size() - 10}) {
        write_bytes(dir / "cut.jpg", jpeg.substr(0, n));
        expect_refused(dir / "cut.jpg", "corrupt or truncated (JPEG");
    }
    std::string bad_tables = jpeg; // the first Huffman table's counts, garbled
    const std::size_t dht = bad_tables.find("\xff\xc4");
    ASSERT_NE(dht, std::string::npos);
    for (std::size_t i = dht + 5; i < dht + 21; ++i) bad_tables[i] = char(0xff);
    write_bytes(dir / "bad-tables.jpg", bad_tables);
    expect_refused(dir / "bad-tables.jpg", "corrupt or truncated (JPEG");
}

TEST(JpegInput, HugeHeaderIsTooLarge) {
    TempDir dir;
    std::string jpeg = small_jpeg(dir);
    const std::size_t sof = jpeg.find("\xff\xc0");
    ASSERT_NE(sof, std::string::npos);
    jpeg[sof + 5] = char(60000 >> 8), jpeg[sof + 6] = char(60000 & 0xff); // height
    jpeg[sof + 7] = char(50000 >> 8), jpeg[sof + 8] = char(50000 & 0xff); // width
    write_bytes(dir / "huge.jpg", jpeg);
    expect_refused(dir / "huge.jpg", "is too large (50000 x 60000; at most 16384 x 16384)");
    write_bytes(dir / "huge-cut.jpg", jpeg.substr(0, sof + 40)); // nothing after the frame header
    expect_refused(dir / "huge-cut.jpg", "is too large (50000 x 60000; at most 16384 x 16384)");
}

// ---- what kcanvas does not read ------------------------------------------------------------------

// 16-bit PNM made stb_image read past its buffer; PNM is no longer accepted at all.
TEST(ImageInput, SixteenBitPnmIsRefusedCleanly) {
    TempDir dir;
    for (int pixels : {15, 64, 2048}) {
        const std::string pgm = "P5\n" + std::to_string(pixels) + " 1\n65535\n" + std::string(2 * pixels, '\x7f');
        const std::string ppm = "P6\n" + std::to_string(pixels) + " 1\n65535\n" + std::string(6 * pixels, '\x7f');
        write_bytes(dir / "x.pgm", pgm);
        write_bytes(dir / "x.ppm", ppm);
        expect_refused(dir / "x.pgm", "is a PNM (PBM/PGM/PPM) image; kcanvas reads PNG, JPEG, BMP or TGA");
        expect_refused(dir / "x.ppm", "PNM");
    }
    expect_refused(std::string(KC_FUZZ_CORPUS) + "/gray16.pgm", "PNM");
}

// The decoder follows the bytes, not the name; other formats are named in the refusal.
TEST(ImageInput, FormatComesFromTheSignatureNotTheName) {
    TempDir dir;
    const auto a = ref::random_image(9, 4, 32);
    ASSERT_FALSE(write_image(dir / "real.png", a.w, a.h, a.px));
    fs::copy_file(dir / "real.png", dir / "named.jpg");
    EXPECT_EQ(load_or_fail(dir / "named.jpg").pixels, a.px);
    write_bytes(dir / "a.gif", "GIF89a\x01\x00\x01\x00\x00\x00\x00;");
    write_bytes(dir / "a.psd", std::string("8BPS\x00\x01", 6) + std::string(40, '\0'));
    write_bytes(dir / "a.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n");
    write_bytes(dir / "text.png", "this is not an image, just some words\n");
    expect_refused(dir / "a.gif", "is a GIF image; kcanvas reads PNG, JPEG, BMP or TGA");
    expect_refused(dir / "a.psd", "PSD");
    expect_refused(dir / "a.hdr", "HDR");
    expect_refused(dir / "text.png", "not an image kcanvas can read (it reads PNG, JPEG, BMP or TGA)");
}

TEST(ImageInput, BmpAndTgaStillLoad) {
    const std::string corpus = KC_FUZZ_CORPUS;
    const Image bmp24 = load_or_fail(corpus + "/rgb24.bmp");
    const Image bmp32 = load_or_fail(corpus + "/rgba32.bmp");
    const Image tga = load_or_fail(corpus + "/raw.tga");
    const Image rle = load_or_fail(corpus + "/rle.tga");
    ASSERT_EQ(bmp24.width, 6);
    ASSERT_EQ(bmp24.height, 4);
    EXPECT_EQ(bmp32.pixels, bmp24.pixels);
    EXPECT_EQ(rle.pixels, tga.pixels);
    // ImageMagick writes a TGA's rows top first yet marks its origin bottom-left (and reads it back
    // the same way); read as the TGA format says, as stb_image does, the picture is upside down.
    std::vector<Pixel> flipped;
    for (int y = bmp24.height - 1; y >= 0; --y)
        flipped.insert(flipped.end(), bmp24.pixels.begin() + y * 6, bmp24.pixels.begin() + (y + 1) * 6);
    EXPECT_EQ(tga.pixels, flipped);
}

// The fuzz target's seeds: every image kind kcanvas reads loads; the 16-bit PGM is refused.
TEST(ImageInput, EveryFuzzSeedLoadsOrIsRefusedByName) {
    int loaded = 0;
    for (const auto& entry : fs::directory_iterator(KC_FUZZ_CORPUS)) {
        const std::string path = entry.path().string(), ext = entry.path().extension().string();
        if (ext == ".md") continue;
        if (ext == ".pgm") {
            expect_refused(path, "PNM");
            continue;
        }
        EXPECT_GT(load_or_fail(path).width, 0) << path;
        ++loaded;
    }
    EXPECT_GE(loaded, 12);
}

// stb_image reads past the end of a short file as zeros; the header's size is checked first.
TEST(ImageInput, TruncatedBmpAndTgaAreRefused) {
    TempDir dir;
    const std::string corpus = KC_FUZZ_CORPUS;
    for (const char* name : {"rgb24.bmp", "rgba32.bmp", "raw.tga"}) {
        const std::string bytes = read_bytes(corpus + "/" + name);
        const std::string cut = dir / (std::string("cut-") + name);
        write_bytes(cut, bytes.substr(0, bytes.size() - 5));
        expect_refused(cut, "is corrupt or truncated (");
    }
}

TEST(ImageInput, NonRegularFilesGetAClearMessage) {
    TempDir dir;
    expect_refused("/proc/self/status", "not an image kcanvas can read"); // size 0 by stat, text inside
    expect_refused(dir.path.string(), "it is a directory");
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
    expect_refused(dir / "fifo", "it is a FIFO (named pipe), not a regular file"); // and does not block
    expect_refused("/dev/zero", "it is a device");
    write_bytes(dir / "empty.png", "");
    expect_refused(dir / "empty.png", "the file is empty");
    expect_refused(dir / "missing.png", "no such file");
}

// ---- writing files -------------------------------------------------------------------------------

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(AtomicWrite, ReplacesKeepingPermissionsAndFollowsLinks) {
    TempDir dir;
    ASSERT_FALSE(write_file_atomically(dir / "a.txt", std::string_view("old")));
    ::chmod((dir / "a.txt").c_str(), 0640);
    ASSERT_FALSE(write_file_atomically(dir / "a.txt", std::string_view("new text")));
    EXPECT_EQ(read_bytes(dir / "a.txt"), "new text");
    EXPECT_EQ(fs::status(dir.path / "a.txt").permissions() & fs::perms::all, fs::perms(0640));
    fs::create_symlink(dir.path / "a.txt", dir.path / "link.txt");
    ASSERT_FALSE(write_file_atomically(dir / "link.txt", std::string_view("through the link")));
    EXPECT_TRUE(fs::is_symlink(dir.path / "link.txt"));
    EXPECT_EQ(read_bytes(dir / "a.txt"), "through the link");
    EXPECT_EQ(names_in(dir.path), (std::vector<std::string>{"a.txt", "link.txt"})) << "no temporary left";
    EXPECT_FALSE(write_file_atomically("/dev/null", std::string_view("discarded"))); // written in place
}

TEST(AtomicWrite, MissingFolderOrAFolderIsRefused) {
    TempDir dir;
    const auto e = write_file_atomically(dir / "nope/a.png", std::string_view("x"));
    ASSERT_TRUE(e);
    EXPECT_NE(e->find("the folder '" + dir / "nope" + "' does not exist"), std::string::npos) << *e;
    const auto f = write_file_atomically(dir.path.string(), std::string_view("x"));
    ASSERT_TRUE(f);
    EXPECT_NE(f->find("it is a folder"), std::string::npos) << *f;
    EXPECT_TRUE(output_path_error(dir / "nope/a.png"));
    EXPECT_FALSE(output_path_error(dir / "a.png"));
    EXPECT_FALSE(output_path_error("relative.png"));
}

// A 64 KiB tmpfs, mounted in a mount namespace of this test process (and its children) only.
// Needs root (CAP_SYS_ADMIN); without it the tests that use it are skipped with the reason.
class FullDisk : public ::testing::Test {
protected:
    TempDir dir;
    fs::path mount_point;
    std::string why_not;

    void SetUp() override {
        mount_point = dir.path / "small";
        fs::create_directories(mount_point);
        if (::unshare(CLONE_NEWNS) != 0)
            why_not = std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
        else if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            why_not = std::string("making / private: ") + std::strerror(errno);
        else if (::mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=64k") != 0)
            why_not = std::string("mounting a 64 KiB tmpfs: ") + std::strerror(errno);
        if (!why_not.empty()) GTEST_SKIP() << "no small file system to fill (needs root): " << why_not;
    }
    void TearDown() override {
        if (why_not.empty()) ::umount2(mount_point.c_str(), MNT_DETACH);
    }
    std::string on_disk(const std::string& name) const { return (mount_point / name).string(); }
    // Fills what is left of the disk with a file of its own.
    void fill() const {
        std::FILE* f = std::fopen(on_disk("filler").c_str(), "wb");
        ASSERT_TRUE(f);
        const std::string block(512, 'f');
        while (std::fwrite(block.data(), 1, block.size(), f) == block.size() && std::fflush(f) == 0) {
        }
        std::fclose(f);
    }
};

TEST_F(FullDisk, ImageWriteKeepsTheOldFileAndSaysDiskFull) {
    const auto small = ref::random_image(16, 16, 33);
    ASSERT_FALSE(write_image(on_disk("old.png"), 16, 16, small.px));
    const std::string old_bytes = read_bytes(on_disk("old.png"));
    fill();
    const auto noise = ref::random_image(128, 128, 34); // ~64 KiB of PNG: cannot fit
    const auto e = write_image(on_disk("old.png"), 128, 128, noise.px);
    ASSERT_TRUE(e) << "the write was said to succeed";
    EXPECT_NE(e->find("disk full"), std::string::npos) << *e;
    EXPECT_NE(e->find("the existing file is unchanged"), std::string::npos) << *e;
    EXPECT_EQ(read_bytes(on_disk("old.png")), old_bytes);
    const auto n = write_image(on_disk("new.jpg"), 128, 128, noise.px);
    ASSERT_TRUE(n);
    EXPECT_NE(n->find("disk full"), std::string::npos) << *n;
    EXPECT_EQ(names_in(mount_point), (std::vector<std::string>{"filler", "old.png"})) << "no temporary, no 0-byte file";
}

TEST_F(FullDisk, KernelSourceWriteKeepsTheOldFile) {
    ASSERT_FALSE(write_text_file(on_disk("k.cu"), "// old kernel\n"));
    fill();
    const auto e = write_text_file(on_disk("k.cu"), std::string(70000, 'x'));
    ASSERT_TRUE(e);
    EXPECT_NE(e->find("disk full"), std::string::npos) << *e;
    EXPECT_EQ(read_bytes(on_disk("k.cu")), "// old kernel\n");
}

// The command line: exit 2 with the reason, the old picture intact.
TEST_F(FullDisk, HeadlessOutExitsTwoAndKeepsTheOldPicture) {
    const auto noise = ref::random_image(128, 128, 35);
    ASSERT_FALSE(write_image(dir / "noise.png", 128, 128, noise.px));
    const auto small = ref::random_image(16, 16, 36);
    ASSERT_FALSE(write_image(on_disk("old.png"), 16, 16, small.px));
    const std::string old_bytes = read_bytes(on_disk("old.png"));
    fill();
    const auto r = test::run("--headless --backend cpu --frames 1 --op invert --image " + dir / "noise.png" +
                             " --out " + on_disk("old.png"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("disk full"), std::string::npos) << r.output;
    EXPECT_EQ(read_bytes(on_disk("old.png")), old_bytes);
}

TEST(CommandLine, OutExtensionIsRefusedBeforeRendering) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = test::run("--headless --backend cpu --frames 100000 --size 4096x4096 --out x.bmp");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("must end in .png, .jpg or .jpeg"), std::string::npos) << r.output;
    EXPECT_LT(seconds, 5.0) << "it rendered first";
    const auto m = test::run("--headless --backend cpu --frames 100000 --size 4096x4096 --out /nonexistent/x.png");
    EXPECT_EQ(m.exit_code, 2) << m.output;
    EXPECT_NE(m.output.find("'/nonexistent' does not exist"), std::string::npos) << m.output;
}

TEST(CommandLine, BenchOutputsInAMissingFolderExitTwo) {
    const auto r = test::run("bench --csv /nonexistent/x.csv --json-out /nonexistent/x.json");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--csv: cannot write '/nonexistent/x.csv': the folder '/nonexistent' does not exist"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("wrote"), std::string::npos) << r.output;
}

} // namespace
} // namespace kc
