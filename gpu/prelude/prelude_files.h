#pragma once
// The files of gpu/prelude/, built into the binary (gpu/embed_text.cmake): the text compiled
// before and after the user's kernel. gpu/kernel_source.h puts them together.
#include <string_view>

namespace kc::prelude {

extern const std::string_view check_abi;     // kcanvas_check_abi.h: KcViolation, KcRecord, KcCheck
extern const std::string_view target_gpu;    // the machine's part: SM number, warp votes, atomics
extern const std::string_view words_gpu;     // one 32-bit load or store per pixel
extern const std::string_view cpu_abi;       // kcanvas_cpu_abi.h: what a CPU kernel's library shares
extern const std::string_view target_cpu;    // the CPU's part: CUDA's words as C++, built-ins, atomics
extern const std::string_view words_cpu;     // one 32-bit load or store per pixel, on the CPU
extern const std::string_view entry_cpu;     // the CPU library's entry points, after the user's code
extern const std::string_view common;        // Pixel, make_pixel, mix (both modes)
extern const std::string_view pointers;      // load and store on plain pointers (both modes)
extern const std::string_view raw;           // raw mode: paint's declaration
extern const std::string_view checked;       // checked mode: the views
extern const std::string_view entry_checked; // checked mode: kc_paint_checked, after the user's code

} // namespace kc::prelude
