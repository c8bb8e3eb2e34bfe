#pragma once
// The A/B split's settings, as a preset holds them (app/ab/ runs the split): side B's launch and
// how the two sides are shown. Side A is the picture the rest of the preset (and the panel)
// describes; B paints the same canvas, with the same input images and clock.
#include <optional>
#include <string>
#include <string_view>

#include "gpu/kernel_source.h"
#include "gpu/paint_job.h"

namespace kc {

enum class AbLayout {
    Divider,    // one picture: A left of a divider the user drags, B right of it
    SideBySide, // A and B each whole, side by side
};
std::string_view ab_layout_name(AbLayout layout); // "divider", "side-by-side"
std::optional<AbLayout> parse_ab_layout(std::string_view name);

struct AbSplit {
    PaintJob b;                  // side B: op, parameters, launch, view (its canvas size is always A's)
    std::string b_kernel_source; // B runs user_kernel: its text ("": the default starter)
    KernelMode b_kernel_mode = KernelMode::Checked;
    AbLayout layout = AbLayout::Divider;
    double divider = 0.5; // the divider over the picture: 0 at its left edge, 1 at its right
    bool diff = true;     // count the pixels where A and B differ, and mark them
};

} // namespace kc
