#include "image_io.h"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace kc {

namespace {
bool has_extension(std::string path, const std::string& ext) {
    std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return std::tolower(c); });
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}
struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
} // namespace

std::optional<std::string> load_image(const std::string& path, Image& out) {
    namespace fs = std::filesystem;
    const std::string name = "'" + path + "'";
    std::error_code ec;
    if (path.empty()) return "no image file given";
    if (!fs::exists(path, ec)) return "cannot read " + name + ": no such file";
    if (fs::is_directory(path, ec)) return "cannot read " + name + ": it is a directory";
    const auto size = fs::file_size(path, ec);
    if (ec) return "cannot read " + name + ": " + ec.message();
    if (size == 0) return "cannot read " + name + ": the file is empty";
    errno = 0;
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) return "cannot open " + name + (errno ? std::string(": ") + std::strerror(errno) : std::string());

    // Header first: reject what is not an image, or too large, before decoding anything.
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_file(file.get(), &w, &h, &channels))
        return name + " is not an image kcanvas can read (" + kImageFormats + "): " + stbi_failure_reason();
    if (w <= 0 || h <= 0) return name + " has no pixels (" + std::to_string(w) + "x" + std::to_string(h) + ")";
    if (w > kMaxImageSide || h > kMaxImageSide)
        return name + " is " + std::to_string(w) + "x" + std::to_string(h) + ": too large (at most " +
               std::to_string(kMaxImageSide) + " pixels a side)";

    std::fseek(file.get(), 0, SEEK_SET);
    int dw = 0, dh = 0, dc = 0;
    std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> rgba(stbi_load_from_file(file.get(), &dw, &dh, &dc, 4),
                                                              &stbi_image_free);
    if (!rgba) return name + " is corrupt or truncated: " + stbi_failure_reason();
    if (dw != w || dh != h) return name + " decoded to a different size than its header says";

    Image image;
    image.width = w;
    image.height = h;
    image.pixels.resize(std::size_t(w) * h);
    const stbi_uc* src = rgba.get();
    for (std::size_t i = 0; i < image.pixels.size(); ++i, src += 4) image.pixels[i] = Pixel{src[2], src[1], src[0], 255};
    out = std::move(image);
    return std::nullopt;
}

std::vector<Pixel> fit_image(const Image& image, int width, int height) {
    if (image.width == width && image.height == height) return image.pixels;
    std::vector<Pixel> out(std::size_t(width) * height);
    for (int y = 0; y < height; ++y) {
        const long long sy = (2LL * y + 1) * image.height / (2LL * height);
        for (int x = 0; x < width; ++x) {
            const long long sx = (2LL * x + 1) * image.width / (2LL * width);
            out[std::size_t(y) * width + x] = image.pixels[std::size_t(sy) * image.width + sx];
        }
    }
    return out;
}

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
