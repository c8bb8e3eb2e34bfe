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

#include <memory>

#include "image_decoders.h"

namespace kc::detail {

static_assert(STBI_MAX_DIMENSIONS == kMaxImageSide);

std::optional<std::string> decode_bmp_or_tga(std::FILE* file, int max_side, bool bmp_signature, Image& out) {
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_file(file, &w, &h, &channels))
        return bmp_signature ? std::string("is corrupt or truncated (BMP: ") + stbi_failure_reason() + ")"
                             : std::string("is not an image kcanvas can read (it reads PNG, JPEG, BMP or TGA)");
    if (auto e = size_error(w, h, max_side)) return e;

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
