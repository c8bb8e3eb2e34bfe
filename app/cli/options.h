#pragma once
// The command line of kcanvas, parsed once with CLI11: the top level (the window, --headless,
// --version, ...) and its commands `record` and `bench`.
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "app/cli/bench.h"
#include "app/cli/exercise_command.h"
#include "app/cli/lesson_command.h"
#include "app/cli/record.h"
#include "app/core/preset.h"
#include "gpu/kernel_source.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"
#include "render/backend.h"

namespace kc {

struct Options {
    bool headless = false;
    std::string op = "gradient";
    int width = 800, height = 800;
    LaunchConfig launch;
    View view = View::Pixels;
    bool size_given = false;   // --size was on the command line (else --image sets the size)
    std::string image, image2; // input images A and B
    OpParams params;           // the operations' parameters (weight, cell, level, ...; not the size)
    int frames = 100;
    int watchdog_s = 20; // exit with a message when no frame finishes for this long on a CUDA backend; 0: off
    double kernel_time_limit_s = 2.0; // the cpu backend: a frame of the user's kernel past this is stopped
    std::chrono::milliseconds kernel_time_limit() const {
        return std::chrono::milliseconds(static_cast<long long>(kernel_time_limit_s * 1000.0));
    }
    std::string out;    // headless: write the last frame here
    bool force = false; // --force: --out and --save-preset replace a read-only file
    bool json = false;
    std::string timeline_out;       // headless: write the last frame's SM timeline here (Chrome-trace JSON)
    std::string timeline_in;        // window: show this recorded SM timeline (a --timeline-out file)
    std::optional<Backend> backend; // nullopt: the best one available
    Present present = Present::Direct;
    bool vsync = true;
    std::string script;                           // windowed: run this UI script (tests, demos), then quit
    bool user_settings = false;                   // windowed, with --script: read and write settings.conf and imgui.ini
    int ui_scale_percent = 0;                     // windowed: --ui-scale; 0: the saved setting (100 with --script)
    std::string kernel_path;                      // --kernel: the user's .cu file (implies --op user_kernel)
    std::string kernel_source;                    // its text, read while parsing (a missing file is bad input)
    KernelMode kernel_mode = KernelMode::Checked; // --kernel-mode: checked views, or raw pointers
    bool strict = false;                          // --strict: an out-of-range access of your kernel exits with 2
    std::optional<BenchOptions> bench;            // `kcanvas bench ...`
    std::optional<RecordFlags> record;            // `kcanvas record ...`, of the picture the other fields describe
    bool version = false;                         // --version: print version_report() (version.h) and exit
    std::optional<int> gpu;                       // --gpu: the CUDA device, checked (nullopt: GL's, or device 0)
    bool list_gpus = false;                       // --list-gpus
    std::string preset_path;                      // --preset: the picture starts from this file
    std::string save_preset;                      // --save-preset: write the preset and exit
    bool print_command = false;                   // --print-command: print the command line and exit
    std::optional<LessonFlags> lesson_command;    // `kcanvas lesson list|check|export ...`
    std::string lesson;                           // window: --lesson FILE|NAME, opened beside the canvas
    std::optional<ExerciseFlags> exercise_command; // `kcanvas exercise list|starter|solution|check ...`
    // A preset's window state: the overlays and the canvas's zoom in the window (nullopt: fit).
    bool block_outlines = false;
    std::optional<std::pair<int, int>> inspect;
    std::optional<double> canvas_zoom;
    // The A/B split (app/ab/): --ab A.json B.json, or a preset that holds one. The fields above are side A.
    std::vector<std::string> ab_presets; // --ab's two files, as given
    std::optional<AbSplit> ab;
};

// Parses argv, the top level's flags or a command's (`record`, `bench`), and checks them. On --help,
// or a malformed, unknown or refused flag, prints what is needed and returns the exit code (0 for
// help, 2 for bad usage) instead of Options.
std::variant<Options, int> parse_options(int argc, char** argv);

// The paint job the options describe; the op name must be known (parse_options checks it).
PaintJob job_from_options(const Options& o);
// Side B's job of the split (o.ab must be set): its own op and launch on side A's canvas.
PaintJob job_b_from_options(const Options& o);

// The preset the options describe, and the options a preset sets (what decides the picture).
Preset preset_from_options(const Options& o);
void apply_preset(const Preset& p, Options& o);

// Why the command line does not replace `path` without --force (a read-only file): "'x.png' is
// read-only ...: add --force to replace it"; nullopt with `force` or a writable file.
std::optional<std::string> read_only_refusal(const std::string& path, bool force);

// --save-preset and --print-command: writes the preset and prints the command; the exit code.
int save_preset_or_print_command(Options o);

} // namespace kc
