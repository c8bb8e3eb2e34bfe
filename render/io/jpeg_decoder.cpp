// JPEG through libjpeg-turbo. libjpeg reports errors with longjmp: every call into it that can fail
// sits in a small function of its own that holds only plain C data, so the jump skips no destructor.
#include <cstdio> // jpeglib.h needs FILE first

#include <jerror.h>
#include <jpeglib.h>
#include <sys/stat.h>

#include <algorithm>
#include <csetjmp>
#include <cstring>
#include <string>

#include "render/io/image_decoders.h"

namespace kc::detail {

namespace {

struct JpegErrors {
    jpeg_error_mgr manager; // first: libjpeg hands back a pointer to it
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = "";
};

[[noreturn]] void on_jpeg_error(j_common_ptr cinfo) {
    auto* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
    cinfo->err->format_message(cinfo, errors->message);
    std::longjmp(errors->jump, 1);
}

// A warning about the data (premature end, bad Huffman code, lost sync) means libjpeg would paint
// made-up pixels: treated as an error. Warnings about metadata are harmless.
void on_jpeg_message(j_common_ptr cinfo, int level) {
    const int code = cinfo->err->msg_code;
    if (level < 0 && code != JWRN_JFIF_MAJOR && code != JWRN_ADOBE_XFORM && code != JWRN_BOGUS_ICC)
        on_jpeg_error(cinfo);
}

// Owns libjpeg's decompressor; not movable, since libjpeg holds a pointer to `errors`.
struct JpegReader {
    JpegErrors errors;
    jpeg_decompress_struct cinfo;
    bool created = false;
    JpegReader() {
        std::memset(&cinfo, 0, sizeof cinfo);
        cinfo.err = jpeg_std_error(&errors.manager);
        errors.manager.error_exit = on_jpeg_error;
        errors.manager.emit_message = on_jpeg_message;
    }
    JpegReader(const JpegReader&) = delete;
    JpegReader& operator=(const JpegReader&) = delete;
    ~JpegReader() {
        if (created) jpeg_destroy_decompress(&cinfo);
    }
};

bool read_jpeg_header(JpegReader& r, std::FILE* file) {
    if (setjmp(r.errors.jump)) return false;
    jpeg_create_decompress(&r.cinfo);
    r.created = true;
    jpeg_stdio_src(&r.cinfo, file);
    jpeg_read_header(&r.cinfo, TRUE);
    return true;
}

// Decodes straight into the canvas' byte order; `max_memory` caps what libjpeg may allocate for
// whole-image buffers (progressive files), which a small file can otherwise make huge.
bool read_jpeg_rows(JpegReader& r, Pixel* pixels, long max_memory) {
    if (setjmp(r.errors.jump)) return false;
    r.cinfo.out_color_space = JCS_EXT_BGRA;
    r.cinfo.mem->max_memory_to_use = max_memory;
    jpeg_start_decompress(&r.cinfo);
    const JDIMENSION width = r.cinfo.output_width;
    if (width != r.cinfo.image_width || r.cinfo.output_height != r.cinfo.image_height) {
        std::snprintf(r.errors.message, sizeof r.errors.message, "decodes to a different size than its header says");
        return false;
    }
    while (r.cinfo.output_scanline < r.cinfo.output_height) {
        JSAMPROW rows[16];
        const JDIMENSION first = r.cinfo.output_scanline;
        const JDIMENSION count = std::min<JDIMENSION>(16, r.cinfo.output_height - first);
        for (JDIMENSION i = 0; i < count; ++i)
            rows[i] = reinterpret_cast<JSAMPROW>(pixels + std::size_t(first + i) * width);
        jpeg_read_scanlines(&r.cinfo, rows, count);
    }
    jpeg_finish_decompress(&r.cinfo);
    return true;
}

// Sequential Huffman data spends at least 2 bits on every 8x8 block of every component (a DC code
// and an AC code, each of one bit or more): a smaller file cannot hold the pixels it declares.
// (Progressive files may leave scans out, and arithmetic coding has no such floor.)
std::optional<std::string> unbacked_error(const jpeg_decompress_struct& c, std::FILE* file) {
    if (c.progressive_mode || c.arith_code) return std::nullopt;
    long long blocks = 0;
    for (int i = 0; i < c.num_components; ++i)
        blocks += (long long)c.comp_info[i].width_in_blocks * c.comp_info[i].height_in_blocks;
    struct stat st {};
    if (::fstat(::fileno(file), &st) != 0 || blocks / 4 <= st.st_size) return std::nullopt;
    return unbacked_size_error(c.image_width, c.image_height, st.st_size,
                               "a baseline JPEG spends at least 2 bits on each of its " + std::to_string(blocks) +
                                   " blocks of 8x8");
}

std::string corrupt(const JpegReader& r) {
    if (r.cinfo.err && r.cinfo.err->msg_code == JERR_NO_BACKING_STORE)
        return "needs more memory to decode than kcanvas allows";
    return std::string("is corrupt or truncated (JPEG: ") + r.errors.message + ")";
}

} // namespace

std::optional<std::string> decode_jpeg(std::FILE* file, int max_side, Image& out) {
    JpegReader r;
    if (!read_jpeg_header(r, file)) {
        // Cut short after the frame header: its size, when too large, is the better reason.
        const auto width = r.cinfo.image_width, height = r.cinfo.image_height;
        if (width > JDIMENSION(max_side) || height > JDIMENSION(max_side)) return size_error(width, height, max_side);
        return corrupt(r);
    }
    if (auto e = size_error(r.cinfo.image_width, r.cinfo.image_height, max_side)) return e;
    const J_COLOR_SPACE space = r.cinfo.jpeg_color_space;
    if (space == JCS_CMYK || space == JCS_YCCK) return "is a CMYK JPEG; kcanvas reads RGB and grayscale JPEGs";
    if (auto e = unbacked_error(r.cinfo, file)) return e;

    Image image;
    image.width = int(r.cinfo.image_width), image.height = int(r.cinfo.image_height);
    image.pixels.resize(std::size_t(image.width) * image.height);
    // Enough for the coefficients of a progressive image of the largest allowed size (2 bytes per
    // sample, 3 components), not for what a forged header could ask.
    const long max_memory = 8L * max_side * max_side;
    if (!read_jpeg_rows(r, image.pixels.data(), max_memory)) return corrupt(r);
    out = std::move(image);
    return std::nullopt;
}

} // namespace kc::detail
