// BMP and TGA through stb_image, compiled here with only those two loaders (Debian's libstb has
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

#include <memory>

#include "render/io/image_decoders.h"

namespace kc::detail {

static_assert(STBI_MAX_DIMENSIONS == kMaxImageSide);

namespace {

long long le(const unsigned char* p, int bytes) {
    long long v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

// The bytes an uncompressed BMP or TGA of this size needs, from its header; 0 when it is
// compressed (RLE) or its layout is not one this check knows. stb_image reads past the end of a
// short file as zeros, so without this a truncated file would load with black rows.
long long bytes_needed(const unsigned char* h, bool bmp, long long width, long long height) {
    if (bmp) {
        const long long header = le(h + 14, 4);
        const long long bpp = header == 12 ? le(h + 24, 2) : le(h + 28, 2);
        const long long compression = header == 12 ? 0 : le(h + 30, 4);
        if (compression != 0 && compression != 3 && compression != 6) return 0; // RLE, JPEG or PNG inside
        const long long stride = (width * bpp + 31) / 32 * 4;
        return le(h + 10, 4) + stride * (height - 1) + (width * bpp + 7) / 8; // the last row unpadded
    }
    const int type = h[2];
    if (type < 1 || type > 3) return 0; // RLE
    const long long palette = h[1] == 1 ? le(h + 5, 2) * ((h[7] + 7) / 8) : 0;
    return 18 + h[0] + palette + width * height * ((h[16] + 7) / 8);
}

std::optional<std::string> truncation_error(std::FILE* file, bool bmp, int width, int height) {
    unsigned char header[64] = {}; // BMP: 54 bytes of file and info header; TGA: 18
    std::fread(header, 1, sizeof header, file);
    std::rewind(file);
    struct stat st {};
    if (::fstat(::fileno(file), &st) != 0) return std::nullopt;
    const long long need = bytes_needed(header, bmp, width, height);
    if (need <= st.st_size) return std::nullopt;
    return std::string("is corrupt or truncated (") + (bmp ? "BMP" : "TGA") + ": " + std::to_string(st.st_size) +
           " bytes where its header needs " + std::to_string(need) + ")";
}

} // namespace

std::optional<std::string> decode_bmp_or_tga(std::FILE* file, int max_side, bool bmp_signature, Image& out) {
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_file(file, &w, &h, &channels))
        return bmp_signature ? std::string("is corrupt or truncated (BMP: ") + stbi_failure_reason() + ")"
                             : std::string("is not an image kcanvas can read (it reads PNG, JPEG, BMP or TGA)");
    if (auto e = size_error(w, h, max_side)) return e;
    if (auto e = truncation_error(file, bmp_signature, w, h)) return e;

    int dw = 0, dh = 0, dc = 0;
    const std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> rgba(stbi_load_from_file(file, &dw, &dh, &dc, 4),
                                                                    &stbi_image_free);
    if (!rgba) return std::string("is corrupt or truncated: ") + stbi_failure_reason();
    if (dw != w || dh != h) return "decoded to a different size than its header says";
    Image image;
    image.width = w, image.height = h;
    image.pixels.resize(std::size_t(w) * h);
    const stbi_uc* src = rgba.get();
    for (Pixel& p : image.pixels) p = Pixel{src[2], src[1], src[0], 255}, src += 4;
    out = std::move(image);
    return std::nullopt;
}

} // namespace kc::detail
