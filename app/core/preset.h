#pragma once
// A preset: everything that decides the picture, as a small versioned JSON file
// ("kcanvas_preset": 1): the op and its parameters (written and read through the parameter table,
// gpu/param_limits.h), the launch, the view and overlays, the canvas size, the input images' paths,
// the user kernel's source and the window's zoom; and, optionally, an A/B split's side B ("ab"). --preset,
// --save-preset and the panel's Save/Load preset read and write it; command_line() is the `kcanvas ...` that paints the
// same.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/core/ab_split.h"
#include "app/core/json_file.h"
#include "gpu/kernel_source.h"
#include "gpu/paint_job.h"

namespace kc {

struct Preset {
    PaintJob job;                                 // op, parameters, canvas size, launch, view (max_blocks unused)
    std::array<std::string, 2> images;            // input images A and B ("": none)
    std::string kernel_source;                    // user_kernel: the kernel's text ("": the default starter)
    KernelMode kernel_mode = KernelMode::Checked; // user_kernel: checked views or raw pointers
    bool block_outlines = false;                  // the window's overlays
    std::optional<std::pair<int, int>> inspect;   // the inspector pinned to this pixel
    std::optional<double> canvas_zoom;            // the window's screen points per canvas pixel; nullopt: fit
    std::optional<AbSplit> ab;                    // the A/B split (app/ab/): the job above is side A
};

constexpr int kPresetVersion = 1;

// What a preset may hold, checked before it is parsed (app/core/json_file.h): a preset is a few
// hundred bytes and its kernel's source, nested 3 deep.
inline const JsonLimits kPresetLimits{.max_bytes = std::size_t(2) << 20, .max_depth = 16, .what = "a preset"};

// The preset as JSON text: the op's own parameters only (those it reads), each by its table name.
std::string preset_json(const Preset& p);

// Reads preset JSON. Unknown keys are warned about by name (in `warnings`); a bad value is an
// error naming its JSON path and the limit ("launch.block: 64x32 has 2048 threads, over 1024").
std::optional<std::string> parse_preset(const std::string& text, Preset& out, std::vector<std::string>& warnings);

// A partial preset, as a lesson step holds it: a preset's keys without "kcanvas_preset", read over
// `inout` (what it does not name stays). On an error `inout` is unchanged.
std::optional<std::string> apply_partial_preset(const nlohmann::json& j, Preset& inout,
                                                std::vector<std::string>& warnings);

// The file versions: errors name the file.
std::optional<std::string> load_preset(const std::string& path, Preset& out, std::vector<std::string>& warnings);
// Atomically; the images' paths are stored absolute (resolved against the working folder), so the
// preset opens the same from any folder.
std::optional<std::string> save_preset(const std::string& path, const Preset& p);

// The `kcanvas ...` command that paints this preset's picture, with flags --help documents.
// The user kernel's source cannot go on a command line: it says so with --kernel FILE.
std::string command_line(const Preset& p);

} // namespace kc
