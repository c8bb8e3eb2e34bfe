#pragma once
// An independent reference for the indexing tests: every thread of a launch visited by plain
// loops, with the mappings written out again here (not taken from thread_body.h), so a mistake in
// the shared thread body cannot hide in the expected values.
#include <cstdint>
#include <functional>
#include <iterator>
#include <random>
#include <vector>

#include "gpu/launch_config.h"

namespace kc::test {

struct Thread {
    int bx, by, bz, tx, ty, tz;
};

// Calls visit(thread, pixel index) for every write the launch makes, in launch order.
inline void for_each_write(const LaunchConfig& c, const Dim3& g, int width, int height,
                           const std::function<void(const Thread&, long long)>& visit) {
    const long long pixels = 1LL * width * height;
    const long long plane_threads = 1LL * c.block.x * c.block.y * g.x * g.y;
    for (int bz = 0; bz < g.z; ++bz)
        for (int by = 0; by < g.y; ++by)
            for (int bx = 0; bx < g.x; ++bx)
                for (int tz = 0; tz < c.block.z; ++tz)
                    for (int ty = 0; ty < c.block.y; ++ty)
                        for (int tx = 0; tx < c.block.x; ++tx) {
                            const Thread t{bx, by, bz, tx, ty, tz};
                            if (c.mapping == Mapping::TwoD) {
                                const long long x = 1LL * bx * c.block.x + tx, y = 1LL * by * c.block.y + ty;
                                if (x < width && y < height) visit(t, y * width + x);
                                continue;
                            }
                            if (c.mapping == Mapping::Columns) { // x and y exchanged: threadIdx.x walks down
                                const long long y = 1LL * bx * c.block.x + tx, x = 1LL * by * c.block.y + ty;
                                if (x < width && y < height) visit(t, y * width + x);
                                continue;
                            }
                            // Block number in the xy plane times threads per block, plus the thread's row-major index.
                            const long long first =
                                (1LL * by * g.x + bx) * c.block.x * c.block.y + 1LL * ty * c.block.x + tx;
                            const long long step = c.mapping == Mapping::GridStride ? plane_threads : pixels;
                            for (long long i = first; i < pixels; i += step) visit(t, i);
                        }
}

// Writes per pixel, counted by brute force.
inline std::vector<int> writes_per_pixel(const LaunchConfig& c, const Dim3& g, int width, int height) {
    std::vector<int> writes(std::size_t(width) * height, 0);
    for_each_write(c, g, width, height, [&](const Thread&, long long i) { ++writes[std::size_t(i)]; });
    return writes;
}

// Random small launches: every mapping, odd sizes, sometimes a hand-set grid too small or too large.
inline LaunchConfig random_launch(std::mt19937& rng, int /*width*/, int /*height*/) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    LaunchConfig c;
    c.mapping = kAllMappings[pick(0, static_cast<int>(std::size(kAllMappings)) - 1)];
    c.block = {pick(1, 40), pick(1, 12), 1};
    c.auto_grid = pick(0, 2) != 0;
    if (!c.auto_grid) c.grid = {pick(1, 12), pick(1, 6), 1};
    return c;
}

} // namespace kc::test
