#pragma once
// The recording's file: one encoder per format, chosen by the output's name.
//   .gif         giflib, one palette per recording (median cut over sampled frames; exact when
//                they hold at most 255 colours), only the changed part of each frame stored
//   .mp4 .webm   the ffmpeg program, fed raw BGRA frames on a pipe (H.264 / VP9)
//   a folder     a numbered PNG sequence, frame-00000.png ... (a name ending in '/' or without
//                an extension)
// Every encoder writes beside the target and renames into place when finish() succeeds; one
// destroyed before that (a failure, a cancel) leaves nothing behind.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpu/pixel.h"

namespace kc {

enum class RecordFormat { Gif, Mp4, Webm, PngSequence };
std::optional<RecordFormat> record_format_of(const std::string& path);
std::string_view record_format_name(RecordFormat f); // "GIF", "MP4", ...
bool needs_ffmpeg(RecordFormat f);

// The ffmpeg program on $PATH, or nullopt; find_program("ffprobe") likewise.
std::optional<std::string> find_program(std::string_view name);
std::optional<std::string> find_ffmpeg();
inline constexpr const char* kNoFfmpeg =
    "MP4 and WebM need the ffmpeg program, which is not on PATH (Debian: apt-get install ffmpeg); "
    "a .gif or a folder of PNGs records without it";

// Why a recording of this size and rate cannot go to `path`: an unknown extension, a missing or
// read-only folder, no ffmpeg, a GIF faster than 50 fps. Checked before any frame is rendered.
std::optional<std::string> record_output_error(const std::string& path, int width, int height, double fps);

// A PNG sequence's file names: frame-00000.png, ... (an earlier sequence may be replaced).
std::string sequence_frame_name(int index);
bool is_sequence_frame_name(const std::string& file_name);

struct EncoderSettings {
    std::string path;
    int width = 0, height = 0;
    double fps = 30;
    int frames = 0; // how many add() will be called with
};

class FrameEncoder {
public:
    virtual ~FrameEncoder() = default; // without finish(): everything written is removed
    // The frames (by index) the encoder wants to see before the first add(): a GIF's palette.
    virtual std::vector<int> frames_to_sample() const { return {}; }
    virtual void sample(const std::vector<Pixel>& /*frame*/) {}
    // width*height pixels, top row first.
    virtual std::optional<std::string> add(const std::vector<Pixel>& frame) = 0;
    // Completes the file and renames it into place; on failure nothing is left.
    virtual std::optional<std::string> finish() = 0;
};

// The encoder for `s.path`'s format, or why there can be none.
std::variant<std::unique_ptr<FrameEncoder>, std::string> open_encoder(const EncoderSettings& s);
std::unique_ptr<FrameEncoder> open_gif_encoder(const EncoderSettings& s, std::string& error);
std::unique_ptr<FrameEncoder> open_ffmpeg_encoder(const EncoderSettings& s, RecordFormat f, std::string& error);

// A GIF palette of at most `colours` entries for these pixels (the GIF encoder's; tested alone).
std::vector<Pixel> choose_palette(const std::vector<Pixel>& pixels, int colours);

} // namespace kc
