// PNG through libpng. libpng reports errors with longjmp: every call into it that can fail sits in
// a small function of its own that holds only plain C data, so the jump skips no destructor.
#include <png.h>
#include <sys/stat.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

#include "render/io/image_decoders.h"

namespace kc::detail {

namespace {

struct PngError {
    char message[256] = "";
};

[[noreturn]] void on_png_error(png_structp png, png_const_charp message) {
    auto* error = static_cast<PngError*>(png_get_error_ptr(png));
    std::snprintf(error->message, sizeof error->message, "%s", message);
    png_longjmp(png, 1);
}
void on_png_warning(png_structp, png_const_charp) {} // damaged ancillary chunks: the pixels are still good

// Owns libpng's read and info structs; not movable, since libpng holds a pointer to `error`.
struct PngReader {
    PngError error;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    PngReader() = default;
    PngReader(const PngReader&) = delete;
    PngReader& operator=(const PngReader&) = delete;
    ~PngReader() { png_destroy_read_struct(&png, &info, nullptr); }
};

// Reads the chunks up to the pixels. Our own size check gives the clearer message, so libpng's
// limits are raised to what PNG allows.
bool read_png_header(png_structp png, png_infop info, std::FILE* file) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_init_io(png, file);
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // Every chunk's CRC-32 already guards the compressed data; zlib's Adler-32 over the same bytes
    // again took a sixth of the decode time of a large image.
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    png_read_info(png, info);
    return true;
}

// Every colour type and depth becomes 8-bit B,G,R,A: palettes and low depths expanded, gray copied
// to R, G and B, 16 bits scaled with rounding, a filler byte where the file has no alpha.
bool set_bgra_output(png_structp png, png_infop info) {
    if (setjmp(png_jmpbuf(png))) return false;
    const int colour = png_get_color_type(png, info);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_bit_depth(png, info) == 16) png_set_scale_16(png); // (v * 255 + 32767) / 65535
    if (!(colour & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER); // where there is no alpha; alpha is reset after the read
    png_set_bgr(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return true;
}

bool read_png_rows(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr); // the rest of the file, so that truncation after the pixels shows
    return true;
}

// Input images are opaque: where the file had alpha (its own, or a palette's tRNS), it goes.
void make_opaque(std::vector<Pixel>& pixels) {
    for (Pixel& p : pixels) p.a = 255;
}

// zlib's deflate codes a 258-byte match in as little as 2 bits: no byte of a PNG file can stand
// for more than 1032 bytes of pixel data.
constexpr long long kMaxDeflateRatio = 1032;

// Samples a pixel of this colour type holds (0: not a colour type PNG has; libpng says so).
int png_channels(int colour_type) {
    switch (colour_type) {
    case 0:
    case 3:
        return 1;
    case 2:
        return 3;
    case 4:
        return 2;
    case 6:
        return 4;
    default:
        return 0;
    }
}

// The size in the IHDR chunk, read before libpng reads on: a file that claims a huge size and is cut
// short after its header is still "too large", not "truncated", and a small file that declares more
// pixels than its bytes can inflate to is refused before any pixel memory. Leaves the file at its start.
std::optional<std::string> check_ihdr_size(std::FILE* file, int max_side) {
    unsigned char head[26];
    const bool whole = std::fread(head, 1, sizeof head, file) == sizeof head;
    std::rewind(file);
    if (!whole || std::memcmp(head + 12, "IHDR", 4) != 0) return std::nullopt; // libpng will say what is wrong
    auto be32 = [&](int at) {
        return (long long)head[at] << 24 | head[at + 1] << 16 | head[at + 2] << 8 | head[at + 3];
    };
    const long long width = be32(16), height = be32(20);
    if (auto e = size_error(width, height, max_side)) return e;
    struct stat st {};
    if (::fstat(::fileno(file), &st) != 0) return std::nullopt;
    // Interlaced or not, the rows hold at least every pixel's bits.
    const long long pixel_bytes = width * height * png_channels(head[25]) * head[24] / 8;
    if (pixel_bytes / kMaxDeflateRatio > st.st_size)
        return unbacked_size_error(width, height, st.st_size,
                                   "a PNG's compressed data inflates to at most 1032 times its size, and these "
                                   "pixels take " +
                                       std::to_string(pixel_bytes) + " bytes");
    return std::nullopt;
}

std::string corrupt(const PngReader& r) {
    return std::string("is corrupt or truncated (PNG: ") + r.error.message + ")";
}

} // namespace

std::optional<std::string> decode_png(std::FILE* file, int max_side, Image& out) {
    if (auto e = check_ihdr_size(file, max_side)) return e;
    PngReader r;
    if (!r.info) return "could not be read: out of memory";
    if (!read_png_header(r.png, r.info, file)) return corrupt(r);
    const long long width = png_get_image_width(r.png, r.info), height = png_get_image_height(r.png, r.info);
    if (auto e = size_error(width, height, max_side)) return e;
    if (!set_bgra_output(r.png, r.info)) return corrupt(r);
    if (png_get_rowbytes(r.png, r.info) != std::size_t(width) * 4) return "is a PNG kcanvas cannot convert to BGRA";

    Image image;
    image.width = int(width), image.height = int(height);
    image.pixels.resize(std::size_t(width) * height);
    std::vector<png_bytep> rows(image.pixels.size() / std::size_t(width));
    for (std::size_t y = 0; y < rows.size(); ++y)
        rows[y] = reinterpret_cast<png_bytep>(&image.pixels[y * std::size_t(width)]);
    if (!read_png_rows(r.png, rows.data())) return corrupt(r);
    if (png_get_color_type(r.png, r.info) & PNG_COLOR_MASK_ALPHA) make_opaque(image.pixels);
    out = std::move(image);
    return std::nullopt;
}

} // namespace kc::detail
