#include "image_io.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace kc {

namespace {
bool has_extension(std::string path, const std::string& ext) {
    std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return std::tolower(c); });
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}
} // namespace

std::optional<std::string> write_image(const std::string& path, int width, int height, const std::vector<Pixel>& pixels) {
    if (pixels.size() != std::size_t(width) * height) return "image size does not match its pixels";
    // Canvas pixels are BGRA in memory; files want RGBA.
    std::vector<unsigned char> rgba(pixels.size() * 4);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        rgba[4 * i + 0] = pixels[i].r;
        rgba[4 * i + 1] = pixels[i].g;
        rgba[4 * i + 2] = pixels[i].b;
        rgba[4 * i + 3] = pixels[i].a;
    }
    errno = 0;
    int ok = 0;
    if (has_extension(path, ".jpg") || has_extension(path, ".jpeg"))
        ok = stbi_write_jpg(path.c_str(), width, height, 4, rgba.data(), 95);
    else if (has_extension(path, ".png"))
        ok = stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4);
    else
        return "cannot write '" + path + "': the file name must end in .png, .jpg or .jpeg";
    if (!ok) return "cannot write '" + path + "'" + (errno ? std::string(": ") + std::strerror(errno) : std::string());
    return std::nullopt;
}

} // namespace kc
