#pragma once
// Image files in and out through stb_image / stb_image_write.
#include <optional>
#include <string>
#include <vector>

#include "pixel.h"

namespace kc {

// Writes width*height canvas pixels as PNG (or JPEG, by the extension .jpg/.jpeg). Returns why
// it failed, or nullopt.
std::optional<std::string> write_image(const std::string& path, int width, int height, const std::vector<Pixel>& pixels);

} // namespace kc
