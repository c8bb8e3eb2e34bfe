// The GIF encoder: giflib, one global palette per recording chosen from sampled frames, each
// frame stored as the rectangle that changed, with unchanged pixels transparent inside it (a step
// mode recording changes one block a frame: a few hundred bytes where a whole frame is tens of kB).
#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "app/record/frame_encoder.h"
#include "render/io/atomic_file.h"

namespace kc {

namespace {

constexpr int kColours = 255;            // palette entries for pixels
constexpr GifPixelType kUnchanged = 255; // the 256th: transparent, the previous frame shows through
constexpr int kSampledFrames = 16;
constexpr std::size_t kSamplesPerFrame = 1 << 20;

std::uint32_t rgb_of(Pixel p) { return std::uint32_t(p.r) << 16 | std::uint32_t(p.g) << 8 | p.b; }
Pixel pixel_of(std::uint32_t rgb) {
    return Pixel{std::uint8_t(rgb), std::uint8_t(rgb >> 8), std::uint8_t(rgb >> 16), 255};
}

// A box of the 5-bit-per-channel histogram for the median cut.
struct Box {
    std::array<int, 3> lo{}, hi{}; // inclusive bin coordinates per channel (r, g, b)
    long long count = 0;
};

struct Histogram {
    std::vector<long long> count = std::vector<long long>(32768), r = count, g = count, b = count;
    static int key(int r5, int g5, int b5) { return r5 << 10 | g5 << 5 | b5; }
    void add(std::uint32_t rgb, long long n) {
        const int k = key(int(rgb >> 19 & 31), int(rgb >> 11 & 31), int(rgb >> 3 & 31));
        count[k] += n, r[k] += n * (rgb >> 16 & 255), g[k] += n * (rgb >> 8 & 255), b[k] += n * (rgb & 255);
    }
    template <class F>
    void each(const Box& box, F&& f) const {
        for (int r5 = box.lo[0]; r5 <= box.hi[0]; ++r5)
            for (int g5 = box.lo[1]; g5 <= box.hi[1]; ++g5)
                for (int b5 = box.lo[2]; b5 <= box.hi[2]; ++b5) f(r5, g5, b5, key(r5, g5, b5));
    }
};

// Shrinks the box to the bins that hold pixels and counts them.
void tighten(const Histogram& h, Box& box) {
    std::array<int, 3> lo{31, 31, 31}, hi{0, 0, 0};
    long long n = 0;
    h.each(box, [&](int r5, int g5, int b5, int k) {
        if (!h.count[k]) return;
        n += h.count[k];
        const int c[3] = {r5, g5, b5};
        for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], c[i]), hi[i] = std::max(hi[i], c[i]);
    });
    box.count = n;
    if (n) box.lo = lo, box.hi = hi;
}

// Splits the box along its longest side where half of its pixels lie on each side.
std::pair<Box, Box> split(const Histogram& h, const Box& box) {
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (box.hi[i] - box.lo[i] > box.hi[axis] - box.lo[axis]) axis = i;
    std::vector<long long> per_plane(32);
    h.each(box, [&](int r5, int g5, int b5, int k) {
        per_plane[(axis == 0 ? r5 : axis == 1 ? g5 : b5)] += h.count[k];
    });
    long long below = 0;
    int cut = box.lo[axis];
    for (int v = box.lo[axis]; v < box.hi[axis]; ++v) {
        below += per_plane[v];
        cut = v;
        if (2 * below >= box.count) break;
    }
    Box a = box, b = box;
    a.hi[axis] = cut, b.lo[axis] = cut + 1;
    tighten(h, a), tighten(h, b);
    return {a, b};
}

std::vector<Pixel> median_cut(const Histogram& h, int colours) {
    Box all{{0, 0, 0}, {31, 31, 31}, 0};
    tighten(h, all);
    std::vector<Box> boxes;
    if (all.count) boxes.push_back(all);
    while (int(boxes.size()) < colours) {
        // The box whose pixels lie farthest from one colour: its pixels times its longest side.
        auto it = std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
            auto weight = [](const Box& x) {
                int side = 0;
                for (int i = 0; i < 3; ++i) side = std::max(side, x.hi[i] - x.lo[i]);
                return double(x.count) * side;
            };
            return weight(a) < weight(b);
        });
        if (it == boxes.end() || it->lo == it->hi) break;
        auto [a, b] = split(h, *it);
        *it = a;
        boxes.push_back(b);
    }
    std::vector<Pixel> palette;
    for (const Box& box : boxes) {
        long long n = 0, r = 0, g = 0, b = 0;
        h.each(box, [&](int, int, int, int k) { n += h.count[k], r += h.r[k], g += h.g[k], b += h.b[k]; });
        if (n) palette.push_back(make_pixel(int((r + n / 2) / n), int((g + n / 2) / n), int((b + n / 2) / n)));
    }
    return palette;
}

class GifEncoder : public FrameEncoder {
public:
    GifEncoder(const EncoderSettings& s, PendingFile file) : s_(s), file_(std::move(file)) {}
    ~GifEncoder() override {
        if (gif_) EGifCloseFile(gif_, nullptr);
    }
    std::vector<int> frames_to_sample() const override {
        std::vector<int> frames;
        const int n = std::min(kSampledFrames, s_.frames);
        for (int i = 0; i < n; ++i)
            frames.push_back(n == 1 ? 0 : int(std::lround(double(i) * (s_.frames - 1) / (n - 1))));
        frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
        return frames;
    }
    void sample(const std::vector<Pixel>& frame) override {
        const std::size_t stride = std::max<std::size_t>(1, frame.size() / kSamplesPerFrame);
        for (std::size_t i = 0; i < frame.size(); i += stride) samples_.push_back(frame[i]);
    }
    std::optional<std::string> add(const std::vector<Pixel>& frame) override;
    std::optional<std::string> finish() override;

private:
    static int on_write(GifFileType* gif, const GifByteType* bytes, int n) {
        auto* self = static_cast<GifEncoder*>(gif->UserData);
        const auto* b = reinterpret_cast<const std::byte*>(bytes);
        self->buffer_.insert(self->buffer_.end(), b, b + n);
        if (self->buffer_.size() >= (1 << 20) && !self->flush()) return 0;
        return n;
    }
    bool flush() {
        if (auto e = file_.write(buffer_)) write_error_ = *e;
        buffer_.clear();
        return write_error_.empty();
    }
    std::optional<std::string> gif_error(const char* what) const {
        if (!write_error_.empty()) return write_error_;
        return fmt_error(what);
    }
    std::string fmt_error(const char* what) const {
        return std::string("cannot write '") + s_.path + "': " + what + ": " +
               (gif_ ? GifErrorString(gif_->Error) : "giflib failed");
    }
    std::optional<std::string> start();
    GifPixelType index_of(Pixel p);
    std::optional<std::string> put_frame(const std::vector<GifPixelType>& indices);

    EncoderSettings s_;
    PendingFile file_;
    GifFileType* gif_ = nullptr;
    std::vector<std::byte> buffer_;
    std::string write_error_;
    std::vector<Pixel> samples_, palette_;
    std::vector<GifPixelType> lookup_;   // 24-bit colour -> palette index, kUnchanged: not looked up yet
    std::vector<GifPixelType> previous_; // the last frame's indices
    int frames_done_ = 0;
};

std::optional<std::string> GifEncoder::start() {
    palette_ = choose_palette(samples_, kColours);
    samples_ = {};
    std::array<GifColorType, 256> colours{};
    for (std::size_t i = 0; i < palette_.size(); ++i) colours[i] = {palette_[i].r, palette_[i].g, palette_[i].b};
    ColorMapObject* map = GifMakeMapObject(256, colours.data());
    int error = 0;
    gif_ = EGifOpen(this, &GifEncoder::on_write, &error);
    if (!gif_) {
        GifFreeMapObject(map);
        return std::string("cannot start a GIF: ") + GifErrorString(error);
    }
    EGifSetGifVersion(gif_, true);
    const bool ok = EGifPutScreenDesc(gif_, s_.width, s_.height, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    if (!ok) return gif_error("screen descriptor");
    // NETSCAPE2.0: loop for ever.
    const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") != GIF_OK || EGifPutExtensionBlock(gif_, 3, loop) != GIF_OK ||
        EGifPutExtensionTrailer(gif_) != GIF_OK)
        return gif_error("loop extension");
    lookup_.assign(1 << 24, kUnchanged);
    return std::nullopt;
}

// The palette entry nearest to `p` (exact where the palette holds it), looked up once per colour.
GifPixelType GifEncoder::index_of(Pixel p) {
    GifPixelType& slot = lookup_[rgb_of(p)];
    if (slot != kUnchanged) return slot;
    long best = -1;
    for (std::size_t i = 0; i < palette_.size(); ++i) {
        const long dr = long(p.r) - palette_[i].r, dg = long(p.g) - palette_[i].g, db = long(p.b) - palette_[i].b;
        const long d = 3 * dr * dr + 4 * dg * dg + 2 * db * db; // green counts most, blue least
        if (best < 0 || d < best) best = d, slot = GifPixelType(i);
        if (d == 0) break;
    }
    return slot;
}

std::optional<std::string> GifEncoder::add(const std::vector<Pixel>& frame) {
    if (frame.size() != std::size_t(s_.width) * s_.height) return "a recorded frame has the wrong size";
    if (!gif_) {
        if (samples_.empty()) sample(frame);
        if (auto e = start()) return e;
    }
    std::vector<GifPixelType> indices(frame.size());
    for (std::size_t i = 0; i < frame.size(); ++i) indices[i] = index_of(frame[i]);
    auto e = put_frame(indices);
    previous_ = std::move(indices);
    ++frames_done_;
    return e;
}

std::optional<std::string> GifEncoder::put_frame(const std::vector<GifPixelType>& indices) {
    const int w = s_.width, h = s_.height;
    int x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1; // the changed rectangle (all of the first frame)
    if (!previous_.empty()) {
        x0 = w, y0 = h, x1 = -1, y1 = -1;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (indices[std::size_t(y) * w + x] != previous_[std::size_t(y) * w + x])
                    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        if (x1 < 0) x0 = y0 = x1 = y1 = 0; // nothing changed: one transparent pixel
    }
    // Delays in hundredths of a second that add up to the frame times: frame n ends at (n+1)/fps.
    const int n = frames_done_;
    const int delay = int(std::lround((n + 1) * 100.0 / s_.fps) - std::lround(n * 100.0 / s_.fps));
    GraphicsControlBlock gcb{DISPOSE_DO_NOT, false, std::max(delay, 1), kUnchanged};
    GifByteType extension[4];
    EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK) return gif_error("frame timing");
    const int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    if (EGifPutImageDesc(gif_, x0, y0, rw, rh, false, nullptr) != GIF_OK) return gif_error("frame");
    std::vector<GifPixelType> row(rw);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            const bool same = !previous_.empty() && previous_[i] == indices[i];
            row[x - x0] = same ? kUnchanged : indices[i];
        }
        if (EGifPutLine(gif_, row.data(), rw) != GIF_OK) return gif_error("pixels");
    }
    return std::nullopt;
}

std::optional<std::string> GifEncoder::finish() {
    if (!gif_) return "cannot write '" + s_.path + "': no frame was recorded";
    int error = 0;
    const int closed = EGifCloseFile(std::exchange(gif_, nullptr), &error);
    if (closed != GIF_OK)
        return write_error_.empty() ? "cannot write '" + s_.path + "': " + GifErrorString(error) : write_error_;
    if (!flush()) return write_error_;
    return file_.commit();
}

} // namespace

std::vector<Pixel> choose_palette(const std::vector<Pixel>& pixels, int colours) {
    std::unordered_map<std::uint32_t, long long> counts;
    for (Pixel p : pixels) ++counts[rgb_of(p)];
    std::vector<std::pair<long long, std::uint32_t>> by_count;
    for (auto [rgb, n] : counts) by_count.emplace_back(n, rgb);
    std::sort(by_count.begin(), by_count.end(), std::greater<>());
    std::vector<Pixel> palette;
    if (int(by_count.size()) <= colours) {
        for (auto [n, rgb] : by_count) palette.push_back(pixel_of(rgb));
        return palette;
    }
    // The colours that fill large areas (a view's flat blocks) stay exact; the rest (gradients,
    // anti-aliased text) share the other entries by a median cut.
    const long long large = std::max<long long>(1, (long long)pixels.size() / 500);
    std::size_t exact = 0;
    while (exact < by_count.size() && int(exact) < colours / 2 && by_count[exact].first >= large) ++exact;
    Histogram h;
    for (std::size_t i = exact; i < by_count.size(); ++i) h.add(by_count[i].second, by_count[i].first);
    for (std::size_t i = 0; i < exact; ++i) palette.push_back(pixel_of(by_count[i].second));
    for (Pixel p : median_cut(h, colours - int(exact))) palette.push_back(p);
    return palette;
}

std::unique_ptr<FrameEncoder> open_gif_encoder(const EncoderSettings& s, std::string& error) {
    auto file = PendingFile::create(s.path);
    if (auto* e = std::get_if<std::string>(&file)) {
        error = *e;
        return nullptr;
    }
    return std::make_unique<GifEncoder>(s, std::move(std::get<PendingFile>(file)));
}

} // namespace kc
