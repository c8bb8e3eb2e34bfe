#pragma once
// `kcanvas --version`: what was built (version, git commit, CUDA toolkit and architectures) and
// what this machine offers (NVRTC, EGL, a GPU), the first line being the one a bug report needs;
// then where the data was found and why anything missing is missing.
#include <string>

namespace kc {

// "kcanvas 0.1.0" (the project's version): what help2man and package tools read.
std::string version_name();
// The whole report, newline-terminated lines.
std::string version_report();

} // namespace kc
