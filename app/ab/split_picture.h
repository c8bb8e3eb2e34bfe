#pragma once
// The split as one picture, for a recording's frames and --out: A left of the divider and B right
// of it, with the divider drawn; or A and B side by side (twice as wide). Differing pixels, when
// given, are marked as the window marks them.
#include <vector>

#include "app/ab/pixel_diff.h"
#include "app/core/ab_split.h"
#include "gpu/pixel.h"

namespace kc {

struct SplitPicture {
    int width = 0, height = 0;
    std::vector<Pixel> pixels; // rows top first
};

// The first column that shows B under the divider at `divider` (0..1) of a picture `width` wide.
int divider_column(double divider, int width);

inline constexpr Pixel kDividerColour{255, 255, 255, 255};

// `a` and `b` are width*height pixels each; `marks` (may be null) is their diff.
SplitPicture split_picture(const std::vector<Pixel>& a, const std::vector<Pixel>& b, int width, int height,
                           const AbSplit& split, const PixelDiff* marks = nullptr);

} // namespace kc
