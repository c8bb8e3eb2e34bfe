#include "gpu/thread_of_pixel.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace kc {

namespace {

// The writer of linear pixel index `i` given the thread's flattened index `global` in plane z = 0.
void fill_from_global(PixelWriter& w, const LaunchConfig& c, const Dim3& grid, unsigned long long global) {
    const unsigned long long per_block = 1ULL * c.block.x * c.block.y;
    const unsigned long long block = global / per_block;
    const unsigned long long within = global % per_block;
    w.block_idx = {static_cast<int>(block % grid.x), static_cast<int>(block / grid.x), 0};
    w.thread_idx = {static_cast<int>(within % c.block.x), static_cast<int>(within / c.block.x), 0};
    w.block_in_launch = static_cast<long long>(block);
    w.thread_in_block = static_cast<int>(within);
    w.global_thread = global;
}

// Appends the rectangles of the linear pixel run [first, last) on a width-wide canvas.
void append_run(std::vector<PixelRect>& out, long long first, long long last, int width) {
    if (first >= last) return;
    const int y0 = static_cast<int>(first / width), x0 = static_cast<int>(first % width);
    const int y1 = static_cast<int>((last - 1) / width), x1 = static_cast<int>((last - 1) % width);
    if (y0 == y1) {
        out.push_back({x0, y0, x1 - x0 + 1, 1});
        return;
    }
    int full_first = y0, full_last = y1; // rows wholly inside the run: [full_first, full_last]
    if (x0 != 0) out.push_back({x0, y0, width - x0, 1}), ++full_first;
    if (x1 != width - 1) --full_last;
    if (full_first <= full_last) out.push_back({0, full_first, width, full_last - full_first + 1});
    if (x1 != width - 1) out.push_back({0, y1, x1 + 1, 1});
}

// The outline(s) of the linear pixel run [first, last): a rectangle, two disjoint pieces, or an
// eight-corner shape (partial first row, whole rows, partial last row).
void append_run_outline(std::vector<Outline>& out, long long first, long long last, int width) {
    if (first >= last) return;
    const int y0 = static_cast<int>(first / width), x0 = static_cast<int>(first % width);
    const int y1 = static_cast<int>((last - 1) / width), xe = static_cast<int>((last - 1) % width) + 1;
    auto rect = [&](int ax, int ay, int bx, int by) { out.push_back({{ax, ay}, {bx, ay}, {bx, by}, {ax, by}}); };
    if (y0 == y1) return rect(x0, y0, xe, y0 + 1);
    if (y1 == y0 + 1 && xe <= x0) return rect(x0, y0, width, y0 + 1), rect(0, y1, xe, y1 + 1);
    out.push_back({{x0, y0}, {width, y0}, {width, y1}, {xe, y1}, {xe, y1 + 1}, {0, y1 + 1}, {0, y0 + 1}, {x0, y0 + 1}});
}

} // namespace

PixelWriter thread_of_pixel(const LaunchConfig& c, const Dim3& grid, int width, int height, int x, int y) {
    PixelWriter w;
    if (x < 0 || y < 0 || x >= width || y >= height) return w;
    if (c.block.count() <= 0 || grid.count() <= 0) return w;
    const unsigned long long pixel = 1ULL * y * width + x;
    const unsigned long long plane_threads = 1ULL * c.block.x * c.block.y * grid.x * grid.y;
    switch (c.mapping) {
    case Mapping::TwoD:
    case Mapping::Columns: {
        // 2d: x = (blockIdx.x*blockDim.x + threadIdx.x)*ppt + k, y likewise with .y (times the rows a
        // thread paints); columns the same with x and y exchanged. Inverted by division and remainder
        // in the grid's axes.
        const Dim3 u = grid_to_picture(c.mapping, {x / c.pixels_per_thread, y / c.rows_per_thread, 1});
        const int bx = u.x / c.block.x, by = u.y / c.block.y;
        if (bx >= grid.x || by >= grid.y) return w;
        w.block_idx = {bx, by, 0};
        w.thread_idx = {u.x % c.block.x, u.y % c.block.y, 0};
        w.block_in_launch = 1LL * by * grid.x + bx;
        w.thread_in_block = w.thread_idx.y * c.block.x + w.thread_idx.x;
        w.global_thread = 1ULL * w.block_in_launch * c.block.x * c.block.y + w.thread_in_block;
        break;
    }
    case Mapping::Linear:
        if (pixel >= plane_threads) return w;
        fill_from_global(w, c, grid, pixel);
        break;
    case Mapping::GridStride:
        // Thread g writes g, g + stride, g + 2*stride, ...: pixel p belongs to thread p % stride.
        fill_from_global(w, c, grid, pixel % plane_threads);
        w.pass = static_cast<long long>(pixel / plane_threads);
        break;
    }
    w.covered = true;
    w.warp = w.thread_in_block / 32;
    w.lane = w.thread_in_block % 32;
    w.writers = 1LL * c.block.z * grid.z;
    return w;
}

std::vector<PixelRect> block_pixel_rects(const LaunchConfig& c, const Dim3& grid, int width, int height, const Dim3& b,
                                         std::size_t max_rects) {
    std::vector<PixelRect> out;
    if (b.x < 0 || b.y < 0 || b.x >= grid.x || b.y >= grid.y || c.block.count() <= 0) return out;
    const long long pixels = 1LL * width * height;
    const long long per_block = 1LL * c.block.x * c.block.y;
    const long long first = (1LL * b.y * grid.x + b.x) * per_block;
    switch (c.mapping) {
    case Mapping::TwoD:
    case Mapping::Columns: {
        const Dim3 tile = block_tile(c), at = grid_to_picture(c.mapping, b); // columns: blockIdx.y picks the x tile
        const int x0 = at.x * tile.x, y0 = at.y * tile.y;
        const int x1 = std::min(width, x0 + tile.x), y1 = std::min(height, y0 + tile.y);
        if (x0 < x1 && y0 < y1) out.push_back({x0, y0, x1 - x0, y1 - y0});
        break;
    }
    case Mapping::Linear:
        append_run(out, first, std::min(pixels, first + per_block), width);
        break;
    case Mapping::GridStride: {
        const long long stride = per_block * grid.x * grid.y;
        for (long long start = first; start < pixels && out.size() < max_rects; start += stride)
            append_run(out, start, std::min(pixels, start + per_block), width);
        break;
    }
    }
    if (out.size() > max_rects) out.resize(max_rects);
    return out;
}

std::vector<Outline> block_outlines(const LaunchConfig& c, const Dim3& grid, int width, int height, const Dim3& b,
                                    std::size_t max_outlines) {
    std::vector<Outline> out;
    if (b.x < 0 || b.y < 0 || b.x >= grid.x || b.y >= grid.y || c.block.count() <= 0) return out;
    if (is_tiled(c.mapping)) {
        for (const PixelRect& r : block_pixel_rects(c, grid, width, height, b))
            out.push_back({{r.x, r.y}, {r.x + r.w, r.y}, {r.x + r.w, r.y + r.h}, {r.x, r.y + r.h}});
        return out;
    }
    const long long pixels = 1LL * width * height;
    const long long per_block = 1LL * c.block.x * c.block.y;
    const long long first = (1LL * b.y * grid.x + b.x) * per_block;
    const long long stride = c.mapping == Mapping::GridStride ? per_block * grid.x * grid.y : pixels;
    for (long long start = first; start < pixels && out.size() < max_outlines; start += stride)
        append_run_outline(out, start, std::min(pixels, start + per_block), width);
    if (out.size() > max_outlines) out.resize(max_outlines);
    return out;
}

std::vector<PixelRect> covered_rects(const LaunchConfig& c, const Dim3& grid, int width, int height) {
    const Coverage cov = coverage(c, width, height);
    std::vector<PixelRect> out;
    if (cov.covered_pixels == 0) return out;
    if (is_tiled(c.mapping)) {
        const Dim3 tile = block_tile(c), tiles = grid_to_picture(c.mapping, grid);
        out.push_back({0, 0, static_cast<int>(std::min<long long>(width, 1LL * tiles.x * tile.x)),
                       static_cast<int>(std::min<long long>(height, 1LL * tiles.y * tile.y))});
        return out;
    }
    append_run(out, 0, cov.covered_pixels, width); // 1D mappings cover a prefix of the pixels
    return out;
}

std::string mapping_formula(const LaunchConfig& c, const Dim3& grid, int width, int height) {
    const long long per_block = 1LL * c.block.x * c.block.y;
    const long long pixels = 1LL * width * height;
    const std::string flat =
        fmt::format("i = (blockIdx.x + blockIdx.y*{})*{} + threadIdx.y*{} + threadIdx.x", grid.x, per_block, c.block.x);
    switch (c.mapping) {
    case Mapping::TwoD:
        if (c.rows_per_thread > 1)
            return fmt::format("x = (blockIdx.x*{} + threadIdx.x)*{}\n"
                               "y = (blockIdx.y*{} + threadIdx.y)*{}\n"
                               "if (x >= {} || y >= {}) return;\n"
                               "pixel[(y .. y+{})*{} + x .. x+{}] = ...  (a {}-byte store a row)",
                               c.block.x, c.pixels_per_thread, c.block.y, c.rows_per_thread, width, height,
                               c.rows_per_thread - 1, width, c.pixels_per_thread - 1, 4 * c.pixels_per_thread);
        if (c.pixels_per_thread == 4)
            return fmt::format("x = (blockIdx.x*{} + threadIdx.x)*4\n"
                               "y = blockIdx.y*{} + threadIdx.y\n"
                               "if (x >= {} || y >= {}) return;\n"
                               "pixel[y*{} + x .. x+3] = ...  (one 16-byte store)",
                               c.block.x, c.block.y, width, height, width);
        return fmt::format("x = blockIdx.x*{} + threadIdx.x\n"
                           "y = blockIdx.y*{} + threadIdx.y\n"
                           "if (x >= {} || y >= {}) return;\n"
                           "pixel[y*{} + x] = ...",
                           c.block.x, c.block.y, width, height, width);
    case Mapping::Columns:
        return fmt::format("y = blockIdx.x*{} + threadIdx.x   // lanes walk down a column\n"
                           "x = blockIdx.y*{} + threadIdx.y\n"
                           "if (x >= {} || y >= {}) return;\n"
                           "pixel[y*{} + x] = ...   // lane k+1 stores {} pixels ({} bytes) after lane k",
                           c.block.x, c.block.y, width, height, width, width, 4LL * width);
    case Mapping::Linear:
        return fmt::format("{}\n"
                           "if (i >= {}) return;\n"
                           "x = i % {},  y = i / {}\n"
                           "block b paints pixels {}*b .. {}*b + {}",
                           flat, pixels, width, width, per_block, per_block, per_block - 1);
    case Mapping::GridStride: {
        const long long stride = per_block * grid.x * grid.y;
        return fmt::format("{}\n"
                           "for (; i < {}; i += {})   // stride = all threads of the grid\n"
                           "    x = i % {},  y = i / {}\n"
                           "{} pass{} over the canvas",
                           flat, pixels, stride, width, width, stride > 0 ? (pixels + stride - 1) / stride : 0,
                           stride > 0 && (pixels + stride - 1) / stride == 1 ? "" : "es");
    }
    }
    return {};
}

WarpStores first_warp_stores(const LaunchConfig& c, int width, int height, int warp_size) {
    WarpStores w;
    const long long pixels = 1LL * width * height;
    const int lanes = static_cast<int>(std::min<long long>(warp_size, 1LL * c.block.x * c.block.y));
    const int store_bytes = 4 * c.pixels_per_thread;
    std::set<long long> rows, lines, sectors;
    for (int k = 0; k < lanes; ++k) {
        const int tx = k % c.block.x, ty = k / c.block.x; // block (0, 0), layer z = 0
        long long first;                                  // the first pixel lane k stores
        if (is_tiled(c.mapping)) {
            const Dim3 p = grid_to_picture(c.mapping, {tx * c.pixels_per_thread, ty * c.rows_per_thread, 1});
            if (p.x >= width || p.y >= height) continue;
            first = 1LL * p.y * width + p.x;
        } else {
            first = 1LL * ty * c.block.x + tx;
            if (first >= pixels) continue;
        }
        ++w.lanes;
        rows.insert(first / width);
        const long long end = std::min(first + c.pixels_per_thread, (first / width + 1) * width); // rows end a store
        for (long long byte = first * 4; byte < end * 4; byte += 4)
            lines.insert(byte / kCacheLineBytes), sectors.insert(byte / kSectorBytes);
    }
    w.rows = static_cast<int>(rows.size());
    w.cache_lines = static_cast<int>(lines.size());
    w.sectors = static_cast<int>(sectors.size());
    w.ideal_lines = static_cast<int>((1LL * w.lanes * store_bytes + kCacheLineBytes - 1) / kCacheLineBytes);
    return w;
}

} // namespace kc
