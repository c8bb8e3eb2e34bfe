#pragma once
// The text NVRTC compiles for the user's kernel: the prelude (gpu/prelude/), the user's lines
// numbered from 1 under their file's name, and in checked mode kcanvas' entry kernel after them.
//
// Checked mode (the default) makes out, a and b checked views (gpu/prelude/checked.cuh): of the
// user's code, it changes only paint's signature, word for word and without moving a line:
//   extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t)
// becomes
//              __device__ __forceinline__ void paint( KcOut out, int width, int height, KcIn a        , ...
// and kc_paint_checked (entry_checked.cuh) calls it with the views. Raw mode compiles the code as
// written, paint being the kernel.
#include <optional>
#include <string>
#include <string_view>

namespace kc {

enum class KernelMode { Checked, Raw };
inline constexpr KernelMode kKernelModes[] = {KernelMode::Checked, KernelMode::Raw};
const char* to_string(KernelMode mode); // "checked", "raw"
std::optional<KernelMode> parse_kernel_mode(std::string_view name);

// Where the kernel runs: the GPU (NVRTC), or the CPU (the system's C++ compiler, cpukernel/). Only
// the machine's part of the prelude differs (target_gpu.cuh and words_gpu.cuh, or target_cpu.h
// and words_cpu.h); the views and helpers are one text.
enum class KernelTarget { Gpu, Cpu };

// The prelude as the panel shows it for `mode`.
std::string user_kernel_prelude(KernelMode mode, KernelTarget target = KernelTarget::Gpu);

// The name of the kernel a compiled module of `mode` is launched through.
const char* kernel_entry(KernelMode mode); // "kc_paint_checked", "paint"

struct CompileText {
    std::string text;                   // what NVRTC (or for the CPU, the C++ compiler) compiles
    std::optional<std::string> refusal; // why checked mode cannot take this source (text is empty)
};
// `count_accesses`: a grading compile (checked mode only): the views count each thread's global
// reads and writes into KcViolation::most_reads/most_writes (KC_COUNT_ACCESSES); normal compiles
// leave it out, so the kernel's speed does not change.
CompileText kernel_text(std::string_view source, std::string_view file_name, KernelMode mode,
                        KernelTarget target = KernelTarget::Gpu, bool count_accesses = false);

// The user's source with paint's signature changed for checked mode (above), or why it cannot be:
// no __global__ paint, or parameters other than the prelude's. Exposed for tests.
struct CheckedSignature {
    std::string source;
    std::optional<std::string> refusal;
    int refusal_line = 0; // the user's line the refusal is about (1-based); 0: the whole file
};
CheckedSignature checked_signature(std::string_view source);

} // namespace kc
