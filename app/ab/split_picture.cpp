#include "app/ab/split_picture.h"

#include <algorithm>
#include <cmath>

namespace kc {

int divider_column(double divider, int width) {
    return std::clamp(static_cast<int>(std::lround(divider * width)), 0, width);
}

namespace {

void mark(std::vector<Pixel>& pixels, int width, int x0, const PixelDiff& marks, int canvas_width) {
    const int height = canvas_width ? int(marks.marked.size()) / canvas_width : 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < canvas_width; ++x)
            if (marks.marked[std::size_t(y) * canvas_width + x]) pixels[std::size_t(y) * width + x0 + x] = kDiffMark;
}

} // namespace

SplitPicture split_picture(const std::vector<Pixel>& a, const std::vector<Pixel>& b, int width, int height,
                           const AbSplit& split, const PixelDiff* marks) {
    SplitPicture out;
    const std::size_t n = std::size_t(width) * height;
    if (a.size() != n || b.size() != n) return out;
    const bool marked = marks && marks->marked.size() == n;
    out.height = height;
    if (split.layout == AbLayout::SideBySide) {
        out.width = 2 * width;
        out.pixels.resize(std::size_t(out.width) * height);
        for (int y = 0; y < height; ++y) {
            std::copy_n(&a[std::size_t(y) * width], width, &out.pixels[std::size_t(y) * out.width]);
            std::copy_n(&b[std::size_t(y) * width], width, &out.pixels[std::size_t(y) * out.width + width]);
        }
        if (marked) mark(out.pixels, out.width, 0, *marks, width), mark(out.pixels, out.width, width, *marks, width);
        return out;
    }
    out.width = width;
    out.pixels = a;
    const int first_b = divider_column(split.divider, width);
    for (int y = 0; y < height; ++y)
        std::copy(&b[std::size_t(y) * width + first_b], &b[std::size_t(y) * width + width],
                  &out.pixels[std::size_t(y) * width + first_b]);
    if (marked) mark(out.pixels, width, 0, *marks, width);
    if (first_b > 0 && first_b < width) // the divider: the last column of A
        for (int y = 0; y < height; ++y) out.pixels[std::size_t(y) * width + first_b - 1] = kDividerColour;
    return out;
}

} // namespace kc
