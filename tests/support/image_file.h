#pragma once
// Reads a PNG written by kcanvas back into canvas pixels (stb_image), for comparisons.
#include <stb/stb_image.h>

#include <string>
#include <vector>

#include "gpu/pixel.h"

namespace kc::test {

struct LoadedImage {
    int width = 0, height = 0;
    std::vector<Pixel> pixels;
};

inline LoadedImage load_png(const std::string& path) {
    LoadedImage img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
    if (!data) return img;
    img.pixels.resize(std::size_t(img.width) * img.height);
    for (std::size_t i = 0; i < img.pixels.size(); ++i)
        img.pixels[i] = Pixel{data[4 * i + 2], data[4 * i + 1], data[4 * i + 0], data[4 * i + 3]};
    stbi_image_free(data);
    return img;
}

} // namespace kc::test
