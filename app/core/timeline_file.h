#pragma once
// An SM timeline recorded elsewhere: the Chrome-trace JSON that `--timeline-out` writes
// (gpu/block_timeline.h), read back for the window's timeline section (`--timeline-in`). A teacher
// records the H200's schedule on the lab machine and shows it on a laptop without a GPU. The file
// is untrusted: bounded in size and depth before it is parsed (json_file.h), and every block must
// lie in the grid it names, once.
#include <string>
#include <variant>

#include "gpu/block_timeline.h"

namespace kc {

struct RecordedTimeline {
    BlockTimeline timeline; // timeline.op: the op named in the file, else 0 (see op_name)
    std::string device;     // "NVIDIA H200 (CUDA device 0)"; "" when the file does not say
    std::string op_name;    // as the file names it; "" when it does not
    std::string file;       // the file's name, for the panel
};

// The timeline in `text`, or why not ("block (41,0) lies outside the grid 40x100x1").
std::variant<RecordedTimeline, std::string> parse_timeline_trace(const std::string& text);
// The same from the file at `path` (at most 64 MiB, a regular file).
std::variant<RecordedTimeline, std::string> read_timeline_file(const std::string& path);

} // namespace kc
