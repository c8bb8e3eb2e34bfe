#pragma once
// Image files in and out through stb_image / stb_image_write.
#include <optional>
#include <string>
#include <vector>

#include "pixel.h"

namespace kc {

struct Image {
    int width = 0, height = 0;
    std::vector<Pixel> pixels; // row-major, top row first, BGRA
};

// Largest image side we decode: the canvas limit (kMaxCanvasSide, 16384), checked with stbi_info
// before any pixel is decoded, so a huge header cannot make us allocate gigabytes.
constexpr int kMaxImageSide = 16384;
// What load_image reads: what Debian's stb_image decodes (checked file by file; TIFF and WebP are not).
inline constexpr const char* kImageFormats = "PNG, JPEG, BMP, TGA, GIF (its first frame), PSD, HDR, PPM/PGM or PIC";

// Reads any file stb_image decodes (PNG, JPEG, BMP, TGA; also GIF's first frame, PSD, PNM, HDR) as
// 8-bit BGRA with alpha 255 where the file has none. On failure returns why (missing, empty,
// not an image, too large, corrupt or truncated) and leaves `out` untouched.
std::optional<std::string> load_image(const std::string& path, Image& out);

// Nearest-neighbour resize: output pixel (x, y) takes source pixel
// (floor((x + 0.5) * w / W), floor((y + 0.5) * h / H)). Done once when an image is loaded or the
// canvas is resized, never per frame.
std::vector<Pixel> fit_image(const Image& image, int width, int height);

// Writes width*height canvas pixels as PNG (or JPEG, by the extension .jpg/.jpeg). Returns why
// it failed, or nullopt.
std::optional<std::string> write_image(const std::string& path, int width, int height, const std::vector<Pixel>& pixels);

} // namespace kc
