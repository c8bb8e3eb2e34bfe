#pragma once
// The user's kernel on disk: reading a .cu file (--kernel, the panel, scripts) and, when a kernel
// faults and CUDA must stop, saving its source so the work is not lost.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "app/core/user_dirs.h" // user_data_dir(), rescue_dir()

namespace kc {

// The largest kernel source kcanvas reads (a .cu file, the autosave): far beyond any kernel typed;
// larger is refused before reading.
constexpr std::size_t kMaxKernelFileBytes = std::size_t(4) << 20;

// Reads a whole text file (a regular file of at most kMaxKernelFileBytes, render/io/bounded_file.h)
// into `text`; on failure returns why ("cannot read 'x.cu': No such file or directory") and leaves
// `text` alone.
std::optional<std::string> read_text_file(const std::string& path, std::string& text);
// Writes `text` to `path` atomically (atomic_file.h): on failure returns why, and a file already
// there is left as it was.
std::optional<std::string> write_text_file(const std::string& path, const std::string& text);

// write_text_file, creating the file's directory first if needed.
std::optional<std::string> write_text_file_atomically(const std::string& path, const std::string& text);

// Saves `source` as kcanvas-kernel-YYYYmmdd-HHMMSS.cu in rescue_dir() (<data dir>/rescued, not
// the working directory, where it is easily lost; there only when the data dir cannot be written);
// returns a line for the fault message: where the source went, or why it could not be saved.
std::string save_faulted_kernel(const std::string& source);

// What kcanvas says when a kernel faulted (`what`: the CUDA error): the error, where the source
// went (`saved_note`, empty when there was no user kernel), and why the process must end.
std::string kernel_fault_message(const std::string& what, const std::string& saved_note);

// Where the editor's Save writes `path` (empty: `fallback`): never into kcanvas's installed data
// folder (a starter opened from there, data_dir.h), but into the user's data folder under the same
// name (<data dir>/fix_me.cu).
std::string kernel_save_target(const std::string& path, const std::string& fallback);

// The file name part of a path, for NVRTC's log ("dir/x.cu" -> "x.cu").
std::string file_name_of(const std::string& path);

} // namespace kc
