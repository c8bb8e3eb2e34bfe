#pragma once
// Where kcanvas finds kcanvas-kernel-host: $KCANVAS_KERNEL_HOST (tests, other layouts), else
// beside the running binary (the build tree and the installed package keep them together).
#include <string>

namespace kc::sandbox {

inline constexpr const char* kHostName = "kcanvas-kernel-host";
inline constexpr const char* kHostEnv = "KCANVAS_KERNEL_HOST";

// The path to start; it may not exist (the spawn then says so, naming the path).
std::string kernel_host_path();

} // namespace kc::sandbox
