#pragma once
// Where two pictures of one size differ: the count, and a mask the window lays over the canvas
// (and a recording over its frames) to mark the differing pixels.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpu/pixel.h"

namespace kc {

struct PixelDiff {
    long long differing = 0;          // pixels whose B, G, R or A byte differs
    long long compared = 0;           // pixels compared (0: the pictures' sizes differ)
    std::vector<std::uint8_t> marked; // 1 where they differ, one byte per pixel, rows top first
    bool identical() const { return compared > 0 && differing == 0; }
};

// Compares `a` and `b` pixel by pixel; pictures of different sizes compare nothing.
PixelDiff diff_pixels(std::span<const Pixel> a, std::span<const Pixel> b);

// The marks as pixels to lay over a picture: magenta where they differ, black elsewhere, so that
// drawn additively (glBlendFunc(GL_ONE, GL_ONE)) they turn differing pixels magenta and leave the rest.
std::vector<Pixel> diff_marks(const PixelDiff& diff);
inline constexpr Pixel kDiffMark{255, 0, 255, 255}; // B, G, R, A: magenta, rare in the ops' pictures

// "identical", "1 pixel differs", "1234 pixels differ (0.19 %)".
std::string diff_text(const PixelDiff& diff);

} // namespace kc
