#pragma once
// Grading a submission: it is compiled as "your kernel" in checked mode with the views counting
// each thread's global reads and writes (KC_COUNT_ACCESSES), run on every launch of
// grading_launches() (on the GPU through NVRTC, else on the CPU backend: g++ and the kernel
// sandbox), and each picture is compared with the target's pixel by pixel. A launch passes when
// every pixel equals the target's, every pixel was written, no access was out of range and the
// budget held. The first launch that failed is named in the summary:
//   "fails with block 32x8, grid 25x100 on 800x800: 1234 pixels differ, 40 unwritten"
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/exercise/exercise.h"
#include "gpu/kernel_check.h"
#include "gpu/pixel.h"

namespace kc {

// The most accesses one thread made, and which thread ("thread (3,2,0) of block (1,0,0)").
struct AccessCount {
    unsigned count = 0;
    std::string thread; // empty when count is 0
};

struct LaunchResult {
    ExerciseLaunch launch;
    bool passed = false;
    std::optional<std::string> error;               // the launch did not run: refused, crashed, stopped by the sandbox
    unsigned long long wrong = 0;                   // pixels written with another value than the target's
    unsigned long long unwritten = 0;               // pixels no thread wrote
    std::optional<std::pair<int, int>> first_wrong; // (x, y) of the first wrong or unwritten pixel, row by row
    KernelViolations violations;                    // the checked views' out-of-range accesses
    AccessCount reads, writes;                      // the most global reads and writes of one thread
    std::string problem; // why it failed, in words ("1234 pixels differ, 40 unwritten"); empty when passed
};

struct GradeResult {
    std::string exercise;
    std::string backend; // "cpu", or "gpu (NVIDIA H200)"
    bool passed = false;
    bool compiled = false;
    std::string compile_log;            // the compiler's messages (the user's line numbers)
    std::vector<LaunchResult> launches; // in grading order; ends at the first that did not run
    std::optional<std::size_t> first_failed;
    AccessCount reads, writes; // the maxima over every launch
    bool over_budget = false;
    // Timed exercises: the starter's and the submission's kernel times (raw mode, median) on a GPU;
    // on the CPU, timing_note says the timing needs a GPU.
    std::optional<double> starter_ms, submission_ms;
    std::string timing_note;
    std::string summary; // "passes 7 launches" or "fails with <launch>: <problem>"
    // The first failed launch's (else the default launch's) pictures, for a diff view: the target,
    // the submission's, and the writer record (0: the pixel is unwritten). width x height each.
    int width = 0, height = 0;
    std::vector<Pixel> target, picture;
    std::vector<unsigned> writers;
};

enum class GradeBackend { Auto, Cpu, Gpu };

struct GradeOptions {
    GradeBackend backend = GradeBackend::Auto; // Auto: the GPU when there is one, else the CPU
    int gpu = 0;
    std::filesystem::path cache_dir; // CPU kernels' cache; empty: cpu_kernel_cache_dir()
    bool keep_pictures = true;       // fill GradeResult's pictures
};

// Why grading cannot run here at all (exit 2): no C++ compiler for the CPU backend, no NVRTC or
// GPU when --backend gpu asks for one, the exercise's own solution does not compile. The
// submission's own problems (it does not compile, a launch crashes) are a failed grade instead.
struct GradeRefusal {
    std::string why;
};

// Grades `source` (a submission; `file_name` names it in compiler messages) against `exercise`.
std::variant<GradeResult, GradeRefusal> grade(const Exercise& exercise, std::string_view source,
                                              std::string_view file_name, const GradeOptions& options = {});

// The diff view of a result's pictures (GradeResult::target, picture, writers): a pixel equal to
// the target's is shown dimmed to a third, one that differs pure red (255, 0, 0), one no thread
// wrote hatched as the canvas shows uncovered pixels (uncovered_pixel). Empty without pictures.
std::vector<Pixel> diff_picture(const GradeResult& r);

// The images a and b the grader gives a submission and the target on a width x height canvas
// (Exercise::inputs): for the window to paint the student's kernel with the same inputs.
struct ExerciseImages {
    std::vector<Pixel> a, b;
};
ExerciseImages exercise_images(const Exercise& exercise, int width, int height);

// The target's picture on launch l's canvas, as grade() compares with (a solution target is
// compiled and run on the backend `options` picks), or why it cannot be painted here.
std::variant<std::vector<Pixel>, GradeRefusal> target_picture(const Exercise& exercise, const ExerciseLaunch& l,
                                                              const GradeOptions& options = {});

// The result as one JSON line (`kcanvas exercise check --json`): exercise, file, passed, backend,
// summary, compiled, compile_log, first_failed, reads, writes, budget, timing and per launch:
// launch, passed, wrong, unwritten, out_of_range, error.
std::string grade_json(const GradeResult& r, std::string_view file);

} // namespace kc
