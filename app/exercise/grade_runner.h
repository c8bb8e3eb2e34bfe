#pragma once
// Where the grader runs kernels (grader.cpp's only view of a backend): the CPU backend's compiler
// and sandbox (grade_runner_cpu.cpp), or a GPU through NVRTC (grade_runner_gpu.cpp, CUDA builds).
// One kernel is loaded at a time; compile() replaces it.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/exercise/exercise.h"
#include "gpu/pixel.h"
#include "gpu/prelude/kcanvas_check_abi.h"

namespace kc {

// One launch's outcome: the picture (the canvas starts as poison magenta), who wrote each pixel
// (0: nobody) and the views' record (out-of-range accesses, the counted maxima); or why it did
// not run.
struct RunOutput {
    std::vector<Pixel> pixels;
    std::vector<unsigned> writers;
    KcViolation violation{};
    std::optional<std::string> error;
};

class GradeRunner {
public:
    virtual ~GradeRunner() = default;
    virtual std::string backend() const = 0; // "cpu", "gpu (NVIDIA H200)"
    // Compiles `source` in checked mode with the access counts; the compiler's log when it fails.
    virtual std::optional<std::string> compile(std::string_view source, std::string_view file_name) = 0;
    virtual RunOutput run(const ExerciseLaunch& l, const Pixel* a, const Pixel* b) = 0;
    // The median time in milliseconds of `source` in raw mode on `l`, or why it cannot be timed.
    virtual std::variant<double, std::string> time(std::string_view source, const ExerciseLaunch& l, const Pixel* a,
                                                   const Pixel* b) = 0;
};

// The CPU backend's runner, or why there is none (no C++ compiler).
std::variant<std::unique_ptr<GradeRunner>, std::string> make_cpu_runner(const std::filesystem::path& cache_dir);
// A GPU's runner (CUDA builds with a GPU and NVRTC), or why there is none.
std::variant<std::unique_ptr<GradeRunner>, std::string> make_gpu_runner(int gpu);

// The poison the canvas starts as before a graded launch: a pixel no thread wrote keeps it.
inline constexpr Pixel kGradePoison{255, 0, 255, 0};

} // namespace kc
