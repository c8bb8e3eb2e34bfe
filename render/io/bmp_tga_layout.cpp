#include "render/io/bmp_tga_layout.h"

#include <algorithm>
#include <cstdlib>

#include "render/io/image_decoders.h"

namespace kc::detail {

namespace {

long long le(std::span<const unsigned char> f, std::size_t at, int bytes) {
    long long v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | f[at + i];
    return v;
}

std::string truncated(const char* format, std::size_t size, long long need) {
    return std::string("is corrupt or truncated (") + format + ": " + std::to_string(size) +
           " bytes where its header needs " + std::to_string(need) + ")";
}

constexpr std::size_t kBmpHeaders = 34; // file header (14) and the info header up to its compression field

// Walks the RLE packets (a count byte, then one pixel to repeat or `count` pixels as they are)
// until they cover `pixels`; returns how many they cover before the file ends.
long long rle_pixels_covered(std::span<const unsigned char> f, std::size_t at, long long pixels, int pixel_bytes) {
    long long covered = 0;
    while (covered < pixels && at < f.size()) {
        const unsigned packet = f[at];
        const long long count = (packet & 127) + 1;
        // stb reads no pixel past the last one, even inside a raw packet.
        const long long bytes = packet & 128 ? pixel_bytes : std::min(count, pixels - covered) * pixel_bytes;
        if (at + 1 + bytes > f.size()) break;
        at += 1 + std::size_t(bytes);
        covered += count;
    }
    return std::min(covered, pixels);
}

} // namespace

std::optional<std::string> bmp_unsupported(std::span<const unsigned char> f) {
    if (f.size() < kBmpHeaders || le(f, 14, 4) == 12) return std::nullopt; // the OS/2 header has no compression
    switch (le(f, 30, 4)) {
    case 1:
        return "is an RLE8-compressed BMP, which kcanvas does not read: save it uncompressed";
    case 2:
        return "is an RLE4-compressed BMP, which kcanvas does not read: save it uncompressed";
    case 4:
        return "is a BMP with a JPEG inside, which kcanvas does not read: save it as a JPEG";
    case 5:
        return "is a BMP with a PNG inside, which kcanvas does not read: save it as a PNG";
    default:
        return std::nullopt;
    }
}

std::optional<std::string> bmp_layout_error(std::span<const unsigned char> f, long long width, long long height) {
    if (f.size() < kBmpHeaders) return truncated("BMP", f.size(), kBmpHeaders);
    const bool os2 = le(f, 14, 4) == 12;
    const long long bpp = os2 ? le(f, 24, 2) : le(f, 28, 2);
    const long long rows = std::llabs(height); // a top-down BMP stores its height negative
    const long long stride = (width * bpp + 31) / 32 * 4;
    const long long need = le(f, 10, 4) + stride * (rows - 1) + (width * bpp + 7) / 8; // the last row unpadded
    if (need > (long long)f.size()) return truncated("BMP", f.size(), need);
    return std::nullopt;
}

std::optional<std::string> tga_layout_error(std::span<const unsigned char> f, long long width, long long height) {
    if (f.size() < 18) return truncated("TGA", f.size(), 18);
    const bool indexed = f[1] == 1;
    // stb skips "first entry" bytes before the palette, then reads the entries.
    const long long palette = indexed ? le(f, 3, 2) + le(f, 5, 2) * ((f[7] + 7) / 8) : 0;
    const long long start = 18 + f[0] + palette;
    const int pixel_bytes = (f[16] + 7) / 8;
    const long long pixels = width * height, size = (long long)f.size();
    if (f[2] < 8) { // uncompressed
        const long long need = start + pixels * pixel_bytes;
        return need > size ? std::optional(truncated("TGA", f.size(), need)) : std::nullopt;
    }
    const long long data = std::max(0LL, size - start);
    if (pixels * (1 + pixel_bytes) > 128 * data)
        return unbacked_size_error(width, height, size,
                                   "an RLE TGA holds at most 128 pixels in " + std::to_string(1 + pixel_bytes) +
                                       " bytes");
    const long long covered = start < size ? rle_pixels_covered(f, std::size_t(start), pixels, pixel_bytes) : 0;
    if (covered < pixels)
        return "is corrupt or truncated (TGA: its RLE data ends after " + std::to_string(covered) + " of its " +
               std::to_string(pixels) + " pixels)";
    return std::nullopt;
}

} // namespace kc::detail
