#pragma once
// The user's kernel on the CPU: its CUDA C++ compiled at run time by the system's C++ compiler
// (g++ or clang++ on PATH, or $KCANVAS_CXX) against a CPU prelude (gpu/prelude/target_cpu.h), into
// a shared object cached by the hash of what went into it, then run over the launch's grid in this
// process: blocks spread over worker threads, a block's threads one after another, as fibers once
// the kernel has a __syncthreads(). Checked mode's views, violation record, writer record and
// step mode work as on the GPU (gpu/kernel_check.h reads both).
//
// Nothing here forks a sandbox: the code this runs is the user's, so the app runs it in a child
// process (part B of issue 27); everything here works in any process and all pointers of a launch
// may point into shared memory. For a seccomp filter: load() opens and maps the library (dlopen);
// start_workers() creates the threads, their thread-locals in the library and the fiber stacks;
// after it, run() with at most that many workers and blocks of at most that many threads makes
// no system call but futex (its workers wait on a condition variable), unless a kernel prints
// (printf: write) or a divergent barrier's message needs memory (malloc may brk or mmap). A
// kernel that faults (a bad pointer, a fiber stack overflowing its guard page) raises SIGSEGV in
// the process; one that never ends keeps run() from returning (stop is read between blocks).
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpu/kernel_source.h"
#include "gpu/launch_config.h"
#include "gpu/pixel.h"
#include "gpu/prelude/kcanvas_check_abi.h"

namespace kc {

struct CpuKernelBuild {
    bool ok = false;
    KernelMode mode = KernelMode::Checked;
    // The compiler's messages with the user's line numbers, written as NVRTC writes them
    // ("kernel.cu(7): error: ..."), or why nothing was compiled (no compiler: the package to install).
    std::string log;
    std::filesystem::path so_path; // the shared object, when ok
    double milliseconds = 0.0;     // this call's time (a cached build: the look-up)
    bool cached = false;           // true: an earlier build of the same text was reused
};

// The compiler compile_cpu_kernel() runs: $KCANVAS_CXX, else g++, else clang++ on PATH; or why
// there is none ("kernels on the CPU need a C++ compiler: install Debian's g++ (apt install g++)").
std::optional<std::string> cpu_compiler_unavailable_reason();

// Compiles `source` (the user's paint; the CPU prelude is added) into a shared object under
// `cache_dir` (created if missing), or finds the one an earlier call built from the same prelude,
// source, mode, compiler and flags. `file_name` names the source in the log.
// `count_accesses`: a grading build (kernel_text's; checked mode only).
CpuKernelBuild compile_cpu_kernel(std::string_view source, std::string_view file_name, KernelMode mode,
                                  const std::filesystem::path& cache_dir, bool count_accesses = false);

// One launch of a loaded kernel. In checked mode `check` is used as on the GPU (violation never
// null; record.writers, identity and max_blocks as KcCheck says); raw mode ignores it.
struct CpuKernelLaunch {
    Dim3 grid, block;
    int width = 0, height = 0;
    Pixel* out = nullptr;
    const Pixel* a = nullptr;
    const Pixel* b = nullptr;
    float t = 0.0f;
    KcCheck check{};
};

// A compiled kernel loaded into this process (move-only: it owns the library and its workers).
class CpuKernelModule {
public:
    // Throws std::runtime_error saying why the file cannot be loaded as a kcanvas CPU kernel.
    static CpuKernelModule load(const std::filesystem::path& so_path);
    CpuKernelModule(CpuKernelModule&&) noexcept;
    CpuKernelModule& operator=(CpuKernelModule&&) noexcept;
    ~CpuKernelModule();

    // Starts `workers` threads (the caller counts as one) and, for a kernel with barriers, maps
    // `fibers` fiber stacks for each, so that run() afterwards creates no thread and, for blocks of
    // up to `fibers` threads, maps no memory: call it before a sandbox forbids clone() and mmap().
    // run() starts what it lacks.
    void start_workers(int workers, unsigned fibers = 0);

    // Runs the whole grid on `workers` threads (the calling one among them). nullopt when every
    // block ran; else why not: a barrier that not every thread of a block reached (the block and
    // the threads named; the other blocks still run), `stop` raised (checked between blocks), or a
    // launch the CPU cannot run (e.g. a block of more than 1024 threads). One run at a time.
    std::optional<std::string> run(const CpuKernelLaunch& launch, int workers,
                                   const std::atomic<bool>* stop = nullptr) const;

    KernelMode mode() const;
    bool has_barriers() const; // the kernel calls __syncthreads(): its threads run as fibers

    struct State; // the library, its entry points and the worker pool (cpukernel/cpu_kernel.cpp)

private:
    explicit CpuKernelModule(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

} // namespace kc
