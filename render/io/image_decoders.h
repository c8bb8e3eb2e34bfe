#pragma once
// The decoders behind load_image, one per file format (image_io.cpp picks one by the file's first
// bytes). Each reads an open file from its start into `out` as BGRA with alpha 255, refuses an
// image over `max_side` pixels a side from its header before allocating any pixel memory, and on
// failure returns the rest of a sentence that starts with the file's name ("is corrupt or
// truncated (PNG: Read Error)").
#include <cstdio>
#include <optional>
#include <string>

#include "render/io/image_io.h"

namespace kc::detail {

std::optional<std::string> decode_png(std::FILE* file, int max_side, Image& out);
std::optional<std::string> decode_jpeg(std::FILE* file, int max_side, Image& out);
// BMP and TGA through stb_image, built with those two formats only; `bmp_signature`: the file
// starts with "BM" (else it may be a TGA, which has no signature).
std::optional<std::string> decode_bmp_or_tga(std::FILE* file, int max_side, bool bmp_signature, Image& out);

// "is too large (W x H; at most M x M)" when a side is over max_side, "has no pixels" at zero.
std::optional<std::string> size_error(long long width, long long height, int max_side);
// "declares W x H pixels, more than its N bytes can hold (`why`): ...": a compressed file's bytes
// bound the pixels it can hold; one that declares more is refused before any pixel is allocated.
std::string unbacked_size_error(long long width, long long height, long long file_bytes, const std::string& why);

} // namespace kc::detail
