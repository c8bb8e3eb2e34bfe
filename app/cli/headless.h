#pragma once
#include "app/cli/options.h"

namespace kc {
// kcanvas --headless: renders o.frames frames without a window, prints timings, writes --out.
// Returns the process exit code.
int run_headless(const Options& o);
} // namespace kc
