#include "app/ab/pixel_diff.h"

#include <fmt/format.h>

namespace kc {

PixelDiff diff_pixels(std::span<const Pixel> a, std::span<const Pixel> b) {
    PixelDiff d;
    if (a.size() != b.size()) return d;
    d.compared = static_cast<long long>(a.size());
    d.marked.assign(a.size(), 0);
    for (std::size_t i = 0; i < a.size(); ++i)
        if (pack(a[i]) != pack(b[i])) {
            d.marked[i] = 1;
            ++d.differing;
        }
    return d;
}

std::vector<Pixel> diff_marks(const PixelDiff& diff) {
    std::vector<Pixel> out(diff.marked.size(), Pixel{0, 0, 0, 255});
    for (std::size_t i = 0; i < diff.marked.size(); ++i)
        if (diff.marked[i]) out[i] = kDiffMark;
    return out;
}

std::string diff_text(const PixelDiff& diff) {
    if (diff.compared == 0) return "not compared";
    if (diff.differing == 0) return "identical";
    if (diff.differing == 1) return "1 pixel differs";
    return fmt::format("{} pixels differ ({:.2f} %)", diff.differing, 100.0 * diff.differing / diff.compared);
}

} // namespace kc
