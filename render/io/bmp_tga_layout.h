#pragma once
// The byte layout of a BMP or TGA file, checked against the file's own bytes before stb_image
// decodes them: stb reads past the end of its buffer as zeros, so a short file would load with
// black rows, and a small RLE file that declares a huge size would cost gigabytes first. Each
// check returns the rest of a sentence that starts with the file's name, or nullopt when every
// byte the header calls for is there.
#include <optional>
#include <span>
#include <string>

namespace kc::detail {

// Compressions kcanvas does not read (RLE8, RLE4, JPEG or PNG inside), named; nullopt otherwise.
std::optional<std::string> bmp_unsupported(std::span<const unsigned char> file);
// `height` as stored: negative for a top-down BMP.
std::optional<std::string> bmp_layout_error(std::span<const unsigned char> file, long long width, long long height);
// Uncompressed: the pixel bytes are there. RLE: at most 128 pixels per packet can back the
// declared size, and the packets, walked, cover every pixel before the file ends.
std::optional<std::string> tga_layout_error(std::span<const unsigned char> file, long long width, long long height);

} // namespace kc::detail
