#pragma once
// Image files in and out: PNG through libpng, JPEG through libjpeg-turbo, BMP and TGA through
// stb_image (those two loaders only); PNG and JPEG written with stb_image_write.
#include <optional>
#include <string>
#include <vector>

#include "gpu/pixel.h"

namespace kc {

struct Image {
    int width = 0, height = 0;
    std::vector<Pixel> pixels; // row-major, top row first, BGRA
};

// Largest image side we decode: the canvas limit (kMaxCanvasSide, 16384), checked against the
// file's header before any pixel memory is allocated, so a forged header cannot cost gigabytes.
constexpr int kMaxImageSide = 16384;
// What load_image reads (the panel's help says so).
inline constexpr const char* kImageFormats = "PNG, JPEG, BMP or TGA";

// Reads a PNG (8 or 16 bits, any colour type), JPEG (baseline or progressive, RGB or gray), BMP or
// TGA file, told apart by their first bytes, not the name, as 8-bit BGRA with alpha 255 (input
// images are opaque: a file's alpha is dropped). 16-bit samples become (v * 255 + 32767) / 65535.
// On failure returns why (missing, not a regular file, empty, not an image of those four kinds,
// too large, corrupt or truncated) and leaves `out` untouched.
std::optional<std::string> load_image(const std::string& path, Image& out);
// The same with a smaller size limit (the fuzz target uses it to stay fast).
std::optional<std::string> load_image(const std::string& path, Image& out, int max_side);

// Nearest-neighbour resize: output pixel (x, y) takes source pixel
// (floor((x + 0.5) * w / W), floor((y + 0.5) * h / H)). Done once when an image is loaded or the
// canvas is resized, never per frame.
std::vector<Pixel> fit_image(const Image& image, int width, int height);

// Why `path` cannot take a picture: its name must end in .png, .jpg or .jpeg; nullopt when it can.
std::optional<std::string> output_format_error(const std::string& path);

// Writes width*height canvas pixels as PNG (or JPEG, by the extension .jpg/.jpeg), encoded in
// memory first and then written atomically (atomic_file.h): a failed write leaves an existing
// file as it was. Returns why it failed ("... disk full ..."), or nullopt.
std::optional<std::string> write_image(const std::string& path, int width, int height,
                                       const std::vector<Pixel>& pixels);

} // namespace kc
