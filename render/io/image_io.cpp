#include "render/io/image_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <variant>

#include "render/io/atomic_file.h"
#include "render/io/image_decoders.h"
#include "render/io/quoted.h"

namespace kc {

namespace detail {
std::optional<std::string> size_error(long long width, long long height, int max_side) {
    if (width <= 0 || height <= 0)
        return "has no pixels (" + std::to_string(width) + " x " + std::to_string(height) + ")";
    if (width <= max_side && height <= max_side) return std::nullopt;
    return "is too large (" + std::to_string(width) + " x " + std::to_string(height) + "; at most " +
           std::to_string(max_side) + " x " + std::to_string(max_side) + ")";
}
std::string unbacked_size_error(long long width, long long height, long long file_bytes, const std::string& why) {
    return "declares " + std::to_string(width) + " x " + std::to_string(height) + " pixels, more than its " +
           std::to_string(file_bytes) + " bytes can hold (" + why + "): it is corrupt or truncated";
}
} // namespace detail

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Why a file of this kind is no image: a directory, a FIFO (which would also block the read), a device.
std::optional<std::string> not_regular(const struct stat& st) {
    if (S_ISREG(st.st_mode)) return std::nullopt;
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    if (S_ISFIFO(st.st_mode)) return "it is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "it is a device, not a regular file";
    return "it is not a regular file";
}

std::string open_reason(int error) {
    if (error == ENOENT) return "no such file";
    if (error == EACCES) return "permission denied";
    return std::strerror(error);
}

// Opens a regular file for reading. The type is checked on the open descriptor too, so a FIFO
// swapped in after the stat is still refused (opened without blocking, never read).
std::optional<std::string> open_regular_file(const std::string& path, File& file) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return open_reason(errno);
    if (auto e = not_regular(st)) return e;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return open_reason(errno);
    if (::fstat(fd, &st) != 0 || not_regular(st)) {
        ::close(fd);
        return not_regular(st).value_or("it is not a regular file");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    file.reset(::fdopen(fd, "rb"));
    if (!file) {
        ::close(fd);
        return std::strerror(errno);
    }
    std::setvbuf(file.get(), nullptr, _IOFBF, 1 << 18); // large reads: fewer system calls for big images
    return std::nullopt;
}

enum class Format { Png, Jpeg, Bmp, MaybeTga };

// The decoder for a file's first bytes, or the name of a format kcanvas does not read.
std::variant<Format, const char*> sniff(const unsigned char* head, std::size_t n) {
    auto starts = [&](const char* magic, std::size_t len) { return n >= len && std::memcmp(head, magic, len) == 0; };
    if (starts("\x89PNG\r\n\x1a\n", 8)) return Format::Png;
    if (starts("\xff\xd8\xff", 3)) return Format::Jpeg;
    if (starts("BM", 2)) return Format::Bmp;
    if (starts("GIF8", 4)) return "a GIF";
    if (starts("8BPS", 4)) return "a Photoshop (PSD)";
    if (starts("#?RADIANCE", 10) || starts("#?RGBE", 6)) return "an HDR (Radiance)";
    if (starts("II*\0", 4) || starts("MM\0*", 4)) return "a TIFF";
    if (starts("RIFF", 4) && n >= 12 && std::memcmp(head + 8, "WEBP", 4) == 0) return "a WebP";
    if (n >= 3 && head[0] == 'P' && head[1] >= '1' && head[1] <= '7' && std::isspace(head[2]))
        return "a PNM (PBM/PGM/PPM)";
    return Format::MaybeTga; // TGA has no signature: stb_image checks its header fields
}

std::optional<std::string> decode(Format format, std::FILE* file, int max_side, Image& image) {
    switch (format) {
    case Format::Png:
        return detail::decode_png(file, max_side, image);
    case Format::Jpeg:
        return detail::decode_jpeg(file, max_side, image);
    case Format::Bmp:
        return detail::decode_bmp_or_tga(file, max_side, true, image);
    case Format::MaybeTga:
        return detail::decode_bmp_or_tga(file, max_side, false, image);
    }
    return "is not an image";
}

} // namespace

std::optional<std::string> load_image(const std::string& path, Image& out) {
    return load_image(path, out, kMaxImageSide);
}

std::optional<std::string> load_image(const std::string& path, Image& out, int max_side) {
    if (path.empty()) return "no image file given";
    const std::string name = quoted(path, 200); // a path from a preset may hold escape sequences
    File file;
    if (auto e = open_regular_file(path, file)) return "cannot read " + name + ": " + *e;
    unsigned char head[16];
    const std::size_t n = std::fread(head, 1, sizeof head, file.get());
    if (n == 0)
        return "cannot read " + name + ": " + (std::ferror(file.get()) ? std::strerror(errno) : "the file is empty");
    std::rewind(file.get());

    const auto format = sniff(head, n);
    if (const char* const* other = std::get_if<const char*>(&format))
        return name + " is " + *other + " image; kcanvas reads PNG, JPEG, BMP or TGA";
    Image image;
    try {
        if (auto e = decode(std::get<Format>(format), file.get(), max_side, image)) return name + " " + *e;
    } catch (const std::bad_alloc&) {
        return name + " could not be read: not enough memory";
    }
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

namespace {

bool has_extension(std::string path, const std::string& ext) {
    std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return std::tolower(c); });
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

bool is_jpeg_name(const std::string& path) { return has_extension(path, ".jpg") || has_extension(path, ".jpeg"); }

// stb_image_write hands the encoded file over in pieces; they are gathered here. No exception may
// cross stb's C frames, so a failed allocation is only noted.
struct Encoded {
    std::vector<std::byte> bytes;
    bool out_of_memory = false;
};
void append_encoded(void* context, void* data, int size) {
    auto* encoded = static_cast<Encoded*>(context);
    try {
        const auto* first = static_cast<const std::byte*>(data);
        encoded->bytes.insert(encoded->bytes.end(), first, first + size);
    } catch (const std::bad_alloc&) {
        encoded->out_of_memory = true;
    }
}

// The file's bytes: canvas pixels are BGRA in memory, the encoders want RGBA.
std::optional<std::string> encode(const std::string& path, int width, int height, const std::vector<Pixel>& pixels,
                                  Encoded& encoded) {
    std::vector<unsigned char> rgba(pixels.size() * 4);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        rgba[4 * i + 0] = pixels[i].r;
        rgba[4 * i + 1] = pixels[i].g;
        rgba[4 * i + 2] = pixels[i].b;
        rgba[4 * i + 3] = pixels[i].a;
    }
    const int ok = is_jpeg_name(path)
                       ? stbi_write_jpg_to_func(append_encoded, &encoded, width, height, 4, rgba.data(), 95)
                       : stbi_write_png_to_func(append_encoded, &encoded, width, height, 4, rgba.data(), width * 4);
    if (!ok || encoded.out_of_memory) return "cannot write '" + path + "': not enough memory to encode the picture";
    return std::nullopt;
}

} // namespace

std::optional<std::string> output_format_error(const std::string& path) {
    if (is_jpeg_name(path) || has_extension(path, ".png")) return std::nullopt;
    return "cannot write '" + path + "': the file name must end in .png, .jpg or .jpeg";
}

std::optional<std::string> write_image(const std::string& path, int width, int height,
                                       const std::vector<Pixel>& pixels) {
    if (pixels.size() != std::size_t(width) * height) return "image size does not match its pixels";
    if (auto e = output_format_error(path)) return e;
    Encoded encoded;
    if (auto e = encode(path, width, height, pixels, encoded)) return e;
    return write_file_atomically(path, encoded.bytes);
}

} // namespace kc
