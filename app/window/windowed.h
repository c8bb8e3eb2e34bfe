#pragma once
#include "app/cli/options.h"

namespace kc {
// kcanvas with a window: the frame loop and the ImGui panel. Returns the process exit code.
int run_windowed(const Options& o);
} // namespace kc
