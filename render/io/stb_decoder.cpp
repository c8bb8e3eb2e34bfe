// BMP and TGA through stb_image, from the file's bytes in memory once their layout is checked
// (bmp_tga_layout.h), compiled here with only those two loaders (Debian's libstb has
// all of them, and stb asks not to be used on untrusted files: its other loaders are fuzzed less).
// STB_IMAGE_STATIC keeps these functions out of the way of libstb's, which the tests still use.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_MAX_DIMENSIONS 16384 // kMaxImageSide; the header is checked against it first anyway
#define STBI_FAILURE_USERMSG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" // the loaders for other formats, never called
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "render/io/bmp_tga_layout.h"
#include "render/io/image_decoders.h"

namespace kc::detail {

static_assert(STBI_MAX_DIMENSIONS == kMaxImageSide);

namespace {

// The most bytes a BMP or TGA of max_side pixels a side takes: 4 bytes a pixel, RLE's raw packets
// (129 bytes per 128 pixels), and headers and palettes.
long long max_file_bytes(int max_side) { return 4LL * max_side * max_side / 128 * 129 + (1 << 20); }

// The whole file, read once: the checks and stb then see the same bytes, and a file cut short
// while it is read is caught here, never decoded as zeros.
std::optional<std::string> read_whole_file(std::FILE* file, int max_side, std::vector<unsigned char>& bytes) {
    struct stat st {};
    if (::fstat(::fileno(file), &st) != 0) return std::string("could not be read: ") + std::strerror(errno);
    if (st.st_size > max_file_bytes(max_side))
        return "is too large a file (" + std::to_string(st.st_size) + " bytes; a BMP or TGA of at most " +
               std::to_string(max_side) + " x " + std::to_string(max_side) + " pixels takes at most " +
               std::to_string(max_file_bytes(max_side)) + ")";
    bytes.resize(std::size_t(st.st_size));
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), file);
    if (got != bytes.size())
        return "is corrupt or truncated (it was cut short while it was read: " + std::to_string(got) + " of its " +
               std::to_string(bytes.size()) + " bytes)";
    return std::nullopt;
}

Image to_bgra(const stbi_uc* src, int width, int height) {
    Image image;
    image.width = width, image.height = height;
    image.pixels.resize(std::size_t(width) * height);
    for (Pixel& p : image.pixels) p = Pixel{src[2], src[1], src[0], 255}, src += 4;
    return image;
}

} // namespace

std::optional<std::string> decode_bmp_or_tga(std::FILE* file, int max_side, bool bmp_signature, Image& out) {
    std::vector<unsigned char> bytes;
    if (auto e = read_whole_file(file, max_side, bytes)) return e;
    if (bmp_signature)
        if (auto e = bmp_unsupported(bytes)) return e;
    const int length = int(bytes.size());
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_memory(bytes.data(), length, &w, &h, &channels))
        return bmp_signature ? std::string("is corrupt or truncated (BMP: ") + stbi_failure_reason() + ")"
                             : std::string("is not an image kcanvas can read (it reads PNG, JPEG, BMP or TGA)");
    const long long rows = std::llabs((long long)h); // a top-down BMP stores its height negative
    if (auto e = size_error(w, rows, max_side)) return e;
    if (auto e = bmp_signature ? bmp_layout_error(bytes, w, h) : tga_layout_error(bytes, w, h)) return e;

    int dw = 0, dh = 0, dc = 0;
    const std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> rgba(
        stbi_load_from_memory(bytes.data(), length, &dw, &dh, &dc, 4), &stbi_image_free);
    if (!rgba) return std::string("is corrupt or truncated: ") + stbi_failure_reason();
    if (dw != w || dh != rows) return "decoded to a different size than its header says";
    std::vector<unsigned char>().swap(bytes); // before the second copy of the pixels
    out = to_bgra(rgba.get(), w, dh);
    return std::nullopt;
}

} // namespace kc::detail
