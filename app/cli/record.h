#pragma once
// `kcanvas record ...`: a recording made headless (GIF, MP4, WebM or a PNG sequence), with a
// progress bar and an ETA on a terminal's stderr.
#include <string>
#include <vector>

namespace kc {

struct Options;

// What `kcanvas record` takes besides the picture's flags (parse_options reads both).
struct RecordFlags {
    std::string out;
    double fps = 30;
    int frames = 0;
    double seconds = 0;
    bool force = false; // --force: --out replaces a read-only file
    bool step = false, outlines = false, no_tint = false, no_legend = false, no_caption = false, plain = false;
    double blocks_per_second = 0, speed = 1, start = 0;
    std::vector<std::string> sweeps, center_to, inspect;
};

// Records the picture `picture` describes as `f` asks. Returns the process exit code.
int run_record(const RecordFlags& f, const Options& picture);

} // namespace kc
