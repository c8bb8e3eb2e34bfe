#pragma once
// Host only: the plain CPU implementations of custom ops spread rows over the cores.
#include <algorithm>
#include <thread>
#include <vector>

namespace kc {

// Calls row(y) for y in [0, height), rows interleaved over the hardware threads.
template <class Row>
void parallel_rows(int height, Row&& row) {
    const int n = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, std::max(1, height));
    std::vector<std::jthread> pool;
    for (int t = 1; t < n; ++t)
        pool.emplace_back([&, t] {
            for (int y = t; y < height; y += n) row(y);
        });
    for (int y = 0; y < height; y += n) row(y);
}

} // namespace kc
