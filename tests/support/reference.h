#pragma once
// Independent CPU references for the tests: written from the specification (the tutorials'
// formulas and CUDA's indexing rules), never by calling the kernels' own functions.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gpu/launch_config.h"
#include "gpu/pixel.h"

namespace kc::ref {

struct Rgb {
    int r, g, b;
};

// drawGradient, as cv2.imwrite saves it: blue = 255 - 255*y/H, green = 255 - 255*x/W, red = 128 - 128*y/H.
inline Rgb gradient(int x, int y, int w, int h) {
    return {128 - (128 * y) / h, 255 - (255 * x) / w, 255 - (255 * y) / h};
}

// drawChess: white when (x/cell + y/cell) is odd.
inline Rgb checkerboard(int x, int y, int cell) {
    const int v = ((x / cell + y / cell) % 2 == 1) ? 255 : 0;
    return {v, v, v};
}

// weight*A + (1-weight)*B, rounded half up, in double precision.
inline int mix(double w, int a, int b) { return static_cast<int>(std::floor(w * a + (1.0 - w) * b + 0.5)); }
inline Rgb blend(int x, int y, int w, int h, int cell, double weight) {
    const Rgb a = gradient(x, y, w, h), b = checkerboard(x, y, cell);
    return {mix(weight, a.r, b.r), mix(weight, a.g, b.g), mix(weight, a.b, b.b)};
}

// The tutorial's merge as its C code computes it, in integers: a*3/4 + b/4 per channel, each
// division truncating (the gradient over the checkerboard).
inline Rgb tutorial_merge(int x, int y, int w, int h, int cell) {
    const Rgb a = gradient(x, y, w, h), b = checkerboard(x, y, cell);
    return {a.r * 3 / 4 + b.r / 4, a.g * 3 / 4 + b.g / 4, a.b * 3 / 4 + b.b / 4};
}

// How many threads of a launch write each pixel, by enumerating every thread as CUDA would and
// applying the mapping's formula (2d, columns, the tutorial's linear flattening, or a grid-stride loop).
inline std::vector<int> writes_per_pixel(const LaunchConfig& l, const Dim3& grid, int w, int h) {
    std::vector<int> count(std::size_t(w) * h, 0);
    const long long n = 1LL * w * h;
    const long long threads_xy = 1LL * grid.x * grid.y * l.block.x * l.block.y;
    for (int bz = 0; bz < grid.z; ++bz)
        for (int by = 0; by < grid.y; ++by)
            for (int bx = 0; bx < grid.x; ++bx)
                for (int tz = 0; tz < l.block.z; ++tz)
                    for (int ty = 0; ty < l.block.y; ++ty)
                        for (int tx = 0; tx < l.block.x; ++tx) {
                            if (l.mapping == Mapping::TwoD) {
                                // With 4 pixels per thread, thread column c paints columns 4c .. 4c+3;
                                // with 2 rows a thread (an own launch), thread row r paints rows 2r, 2r+1.
                                const long long column = 1LL * bx * l.block.x + tx, row = 1LL * by * l.block.y + ty;
                                for (int j = 0; j < l.rows_per_thread; ++j)
                                    for (int k = 0; k < l.pixels_per_thread; ++k) {
                                        const long long x = column * l.pixels_per_thread + k,
                                                        y = row * l.rows_per_thread + j;
                                        if (x < w && y < h) ++count[y * w + x];
                                    }
                                continue;
                            }
                            if (l.mapping == Mapping::Columns) {
                                // The 2d formulas with x and y exchanged: y from blockIdx.x/threadIdx.x.
                                const long long y = 1LL * bx * l.block.x + tx, x = 1LL * by * l.block.y + ty;
                                if (x < w && y < h) ++count[y * w + x];
                                continue;
                            }
                            const long long block_id = bx + 1LL * by * grid.x;
                            long long i = block_id * l.block.x * l.block.y + 1LL * ty * l.block.x + tx;
                            do {
                                if (i < n) ++count[i];
                                i += threads_xy;
                            } while (l.mapping == Mapping::GridStride && i < n);
                        }
    return count;
}

inline bool same_rgb(Pixel p, Rgb q) { return p.r == q.r && p.g == q.g && p.b == q.b && p.a == 255; }
inline bool within_one(Pixel p, Rgb q) {
    return std::abs(p.r - q.r) <= 1 && std::abs(p.g - q.g) <= 1 && std::abs(p.b - q.b) <= 1 && p.a == 255;
}

} // namespace kc::ref
