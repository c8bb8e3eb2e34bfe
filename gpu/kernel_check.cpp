#include "gpu/kernel_check.h"

#include <fmt/format.h>

namespace kc {

namespace {

constexpr const char* kImages[] = {"out", "a", "b"};

// Why the thread's own 2d position explains the index, where it does.
std::string thread_position(const KcViolation& v, int width, int height) {
    const long long x = 1LL * v.block[0] * v.block_dim[0] + v.thread[0];
    const long long y = 1LL * v.block[1] * v.block_dim[1] + v.thread[1];
    if (x >= width) return fmt::format("; its x = blockIdx.x*blockDim.x + threadIdx.x = {} >= width {}", x, width);
    if (y >= height) return fmt::format("; its y = blockIdx.y*blockDim.y + threadIdx.y = {} >= height {}", y, height);
    return fmt::format("; its x = {} and y = {} are inside the canvas, so the index is not y*width + x = {}", x, y,
                       y * width + x);
}

} // namespace

std::string describe(const KernelViolations& violations) {
    if (violations.count == 0) return {};
    const KcViolation& v = violations.first;
    const int w = violations.width, h = violations.height;
    const long long pixels = 1LL * w * h;
    const char* image = kImages[v.image >= 0 && v.image < 3 ? v.image : 0];
    std::string where, why;
    if (v.x != KC_NO_XY) {
        where = fmt::format("{}({}, {})", image, v.x, v.y);
        why = v.x < 0 || v.x >= w ? fmt::format("x = {} is outside 0..{}", v.x, w - 1)
                                  : fmt::format("y = {} is outside 0..{}", v.y, h - 1);
    } else {
        where = fmt::format("{}[{}]", image, v.index);
        why = v.index < 0 ? fmt::format("before the start (indices run from 0 to {})", pixels - 1)
                          : fmt::format("past the end ({}x{} = {} pixels)", w, h, pixels);
        why += thread_position(v, w, h);
    }
    std::string s =
        fmt::format("thread ({},{}{}) of block ({},{}{}) {} {}: {}", v.thread[0], v.thread[1],
                    v.thread[2] ? fmt::format(",{}", v.thread[2]) : "", v.block[0], v.block[1],
                    v.block[2] ? fmt::format(",{}", v.block[2]) : "", v.write ? "wrote" : "read", where, why);
    if (violations.count > 1)
        s += fmt::format(" (and {} more out-of-range accesses this frame{})", violations.count - 1,
                         violations.count == 0xFFFFFFFFu ? " or more" : "");
    return s;
}

} // namespace kc
