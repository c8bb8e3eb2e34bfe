#pragma once
#include "app/cli/options.h"

namespace kc {
// kcanvas --ab A.json B.json --headless: paints side A and side B in turn, frame by frame (so both
// meet the same clocks and the same load), then prints each side's kernel time (median and the
// middle half of the frames), the ratio B/A and how many pixels differ. --out writes the split.
// Returns the process exit code: 2 for a launch refused or a kernel that does not compile.
int run_ab_headless(const Options& o);
} // namespace kc
