#include "app/record/frame_encoder.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "render/io/atomic_file.h"
#include "render/io/image_io.h"

namespace kc {

namespace {
namespace fs = std::filesystem;

std::string lower_extension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

bool is_sequence_name(const std::string& file_name) { return is_sequence_frame_name(file_name); }

// A numbered PNG per frame, into a folder renamed into place at the end.
class PngSequenceEncoder : public FrameEncoder {
public:
    PngSequenceEncoder(const EncoderSettings& s, PendingFolder folder) : s_(s), folder_(std::move(folder)) {}
    std::optional<std::string> add(const std::vector<Pixel>& frame) override {
        const std::string path = fmt::format("{}/{}", folder_.temporary(), sequence_frame_name(next_++));
        if (auto e = write_image(path, s_.width, s_.height, frame)) return e;
        return std::nullopt;
    }
    std::optional<std::string> finish() override { return folder_.commit(&is_sequence_name); }

private:
    EncoderSettings s_;
    PendingFolder folder_;
    int next_ = 0;
};

} // namespace

std::optional<RecordFormat> record_format_of(const std::string& path) {
    if (path.empty()) return std::nullopt;
    if (path.back() == '/') return RecordFormat::PngSequence;
    const std::string ext = lower_extension(path);
    if (ext.empty()) return RecordFormat::PngSequence;
    if (ext == ".gif") return RecordFormat::Gif;
    if (ext == ".mp4") return RecordFormat::Mp4;
    if (ext == ".webm") return RecordFormat::Webm;
    std::error_code ec;
    if (fs::is_directory(path, ec)) return RecordFormat::PngSequence;
    return std::nullopt;
}

std::string_view record_format_name(RecordFormat f) {
    switch (f) {
    case RecordFormat::Gif:
        return "GIF";
    case RecordFormat::Mp4:
        return "MP4";
    case RecordFormat::Webm:
        return "WebM";
    case RecordFormat::PngSequence:
        return "PNG sequence";
    }
    return "?";
}

bool needs_ffmpeg(RecordFormat f) { return f == RecordFormat::Mp4 || f == RecordFormat::Webm; }

std::optional<std::string> find_ffmpeg() { return find_program("ffmpeg"); }

std::optional<std::string> find_program(std::string_view name) {
    const char* path = std::getenv("PATH");
    if (!path) return std::nullopt;
    std::string_view rest(path);
    while (true) {
        const auto colon = rest.find(':');
        const std::string_view dir = rest.substr(0, colon);
        const std::string candidate = fmt::format("{}/{}", dir.empty() ? std::string_view(".") : dir, name);
        if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
        if (colon == std::string_view::npos) return std::nullopt;
        rest.remove_prefix(colon + 1);
    }
}

std::string sequence_frame_name(int index) { return fmt::format("frame-{:05d}.png", index); }

bool is_sequence_frame_name(const std::string& n) {
    if (!n.starts_with("frame-") || !n.ends_with(".png") || n.size() < 15) return false;
    for (std::size_t i = 6; i + 4 < n.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(n[i]))) return false;
    return true;
}

std::optional<std::string> record_output_error(const std::string& path, int width, int height, double fps) {
    const auto f = record_format_of(path);
    if (!f)
        return fmt::format("cannot record to '{}': the name must end in .gif, .mp4 or .webm, or name a folder "
                           "(ending in '/') for a PNG sequence",
                           path);
    if (f == RecordFormat::Gif && fps > 50)
        return fmt::format("a GIF plays at most 50 frames per second (its delays are hundredths of a second, "
                           "and players slow anything faster down); {:g} asked",
                           fps);
    if (f == RecordFormat::Gif && (width > 65535 || height > 65535)) return "a GIF is at most 65535 pixels a side";
    if (needs_ffmpeg(*f) && !find_ffmpeg()) return std::string(kNoFfmpeg);
    if (f == RecordFormat::PngSequence) return output_folder_error(path, &is_sequence_name);
    return output_path_error(path);
}

std::variant<std::unique_ptr<FrameEncoder>, std::string> open_encoder(const EncoderSettings& s) {
    if (auto e = record_output_error(s.path, s.width, s.height, s.fps)) return *e;
    const RecordFormat f = *record_format_of(s.path);
    std::string error;
    std::unique_ptr<FrameEncoder> encoder;
    if (f == RecordFormat::PngSequence) {
        auto folder = PendingFolder::create(s.path);
        if (auto* e = std::get_if<std::string>(&folder)) return *e;
        return std::unique_ptr<FrameEncoder>(
            std::make_unique<PngSequenceEncoder>(s, std::move(std::get<PendingFolder>(folder))));
    }
    encoder = f == RecordFormat::Gif ? open_gif_encoder(s, error) : open_ffmpeg_encoder(s, f, error);
    if (!encoder) return error;
    return encoder;
}

} // namespace kc
