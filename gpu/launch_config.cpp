#include "gpu/launch_config.h"

#include "gpu/named.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace kc {

std::string_view mapping_name(Mapping m) {
    switch (m) {
    case Mapping::TwoD:
        return "2d";
    case Mapping::Linear:
        return "linear";
    case Mapping::GridStride:
        return "grid-stride";
    case Mapping::Columns:
        return "columns";
    }
    return "?";
}

std::optional<Mapping> parse_mapping(std::string_view name) { return find_by_name(name, kAllMappings, mapping_name); }

std::string mapping_names() {
    std::string names;
    for (Mapping m : kAllMappings) names += (names.empty() ? "" : ", ") + std::string(mapping_name(m));
    return names;
}

LaunchConfig tutorial_preset() {
    return LaunchConfig{.block = {50, 20, 1}, .grid = {80, 8, 1}, .auto_grid = false, .mapping = Mapping::Linear};
}

DeviceLimits universal_limits() { return DeviceLimits{}; }

std::optional<std::string> canvas_size_error(int width, int height) {
    if (width <= 0 || height <= 0)
        return fmt::format("canvas size {}x{} is empty: width and height must be at least 1", width, height);
    if (width > kMaxCanvasSide || height > kMaxCanvasSide)
        return fmt::format("canvas size {}x{} is too large: each side may be at most {}", width, height,
                           kMaxCanvasSide);
    return std::nullopt;
}

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

Dim3 auto_grid(const Dim3& block, int width, int height, Mapping mapping, int pixels_per_thread, int rows_per_thread) {
    if (block.x <= 0 || block.y <= 0 || block.z <= 0) return {1, 1, 1};
    const long long pixels = 1LL * width * height;
    const long long per_block = 1LL * block.x * block.y;
    switch (mapping) {
    case Mapping::TwoD:
    case Mapping::Columns: {
        // Enough blocks along each picture axis, then back to the grid's axes (exchanged for columns).
        const Dim3 tile = grid_to_picture(
            mapping, {block.x * std::max(1, pixels_per_thread), block.y * std::max(1, rows_per_thread), 1});
        return grid_to_picture(
            mapping, {static_cast<int>(ceil_div(width, tile.x)), static_cast<int>(ceil_div(height, tile.y)), 1});
    }
    case Mapping::Linear: {
        // As many blocks as pixels need, laid out as rows of at most 65535 blocks.
        const long long blocks = ceil_div(pixels, per_block);
        const long long gx = std::min<long long>(blocks, 65535);
        return {static_cast<int>(gx), static_cast<int>(ceil_div(blocks, gx)), 1};
    }
    case Mapping::GridStride: {
        // A fixed, modest grid: each thread loops over several pixels, which is the point.
        const long long blocks = std::min<long long>(ceil_div(pixels, per_block), 1024);
        return {static_cast<int>(std::max<long long>(blocks, 1)), 1, 1};
    }
    }
    return {1, 1, 1};
}

Dim3 resolved_grid(const LaunchConfig& config, int width, int height) {
    return config.auto_grid ? auto_grid(config.block, width, height, config.mapping, config.pixels_per_thread,
                                        config.rows_per_thread)
                            : config.grid;
}

std::optional<std::string> launch_error(const LaunchConfig& config, int width, int height, const DeviceLimits& limits) {
    const Dim3& b = config.block;
    if (config.pixels_per_thread != 1 && config.pixels_per_thread != 4)
        return fmt::format("{} pixels per thread: choose 1 or 4", config.pixels_per_thread);
    if (config.pixels_per_thread == 4 && config.mapping != Mapping::TwoD) // columns too: its lanes walk y
        return "4 pixels per thread needs the 2d mapping";
    if (b.x <= 0 || b.y <= 0 || b.z <= 0)
        return fmt::format("block {} has a zero or negative dimension: each must be at least 1", to_string(b));
    if (b.x > limits.max_block.x)
        return fmt::format("block x = {} is over the limit of {} (max block dimension x)", b.x, limits.max_block.x);
    if (b.y > limits.max_block.y)
        return fmt::format("block y = {} is over the limit of {} (max block dimension y)", b.y, limits.max_block.y);
    if (b.z > limits.max_block.z)
        return fmt::format("block z = {} is over the limit of {} (max block dimension z)", b.z, limits.max_block.z);
    if (b.count() > limits.max_threads_per_block)
        return fmt::format("block {} has {} threads: over the limit of {} threads per block", to_string(b), b.count(),
                           limits.max_threads_per_block);
    const Dim3 g = resolved_grid(config, width, height);
    if (g.x <= 0 || g.y <= 0 || g.z <= 0)
        return fmt::format("grid {} has a zero or negative dimension: each must be at least 1", to_string(g));
    if (g.x > limits.max_grid_x)
        return fmt::format("grid x = {} is over the limit of {} (max grid dimension x)", g.x, limits.max_grid_x);
    if (g.y > limits.max_grid_y)
        return fmt::format("grid y = {} is over the limit of {} (max grid dimension y)", g.y, limits.max_grid_y);
    if (g.z > limits.max_grid_z)
        return fmt::format("grid z = {} is over the limit of {} (max grid dimension z)", g.z, limits.max_grid_z);
    return std::nullopt;
}

Coverage coverage(const LaunchConfig& config, int width, int height) {
    Coverage c;
    const Dim3& b = config.block;
    const Dim3 g = resolved_grid(config, width, height);
    c.pixels = 1LL * width * height;
    c.threads = b.count() * g.count();
    // threadIdx.z and blockIdx.z take no part in any mapping: each z layer repeats the xy writes.
    const long long layers = 1LL * b.z * g.z;
    const long long plane_threads = 1LL * b.x * b.y * g.x * g.y;
    switch (config.mapping) {
    case Mapping::TwoD:
    case Mapping::Columns: {
        const Dim3 tile = block_tile(config), tiles = grid_to_picture(config.mapping, g);
        c.covered_pixels =
            std::min<long long>(width, 1LL * tiles.x * tile.x) * std::min<long long>(height, 1LL * tiles.y * tile.y);
        // In the grid's axes: a thread row or column owns pixels while its first one is inside.
        const Dim3 extent = grid_to_picture(config.mapping, {width, height, 1});
        const auto owning = [](long long threads, long long side, int per_thread) {
            return std::min(threads, (side + per_thread - 1) / per_thread);
        };
        c.idle_threads = c.threads - owning(1LL * g.x * b.x, extent.x, config.pixels_per_thread) *
                                         owning(1LL * g.y * b.y, extent.y, config.rows_per_thread) * layers;
        break;
    }
    case Mapping::Linear:
        c.covered_pixels = std::min(c.pixels, plane_threads);
        c.idle_threads = c.threads - c.covered_pixels * layers;
        break;
    case Mapping::GridStride:
        c.covered_pixels = plane_threads > 0 ? c.pixels : 0;
        c.idle_threads = c.threads - std::min(c.pixels, plane_threads) * layers;
        break;
    }
    c.repeated_writes = c.covered_pixels * (layers - 1);
    c.multi_written_pixels = layers > 1 ? c.covered_pixels : 0;
    return c;
}

std::string to_string(const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::optional<Dim3> parse_dim3(std::string_view text) {
    int values[3] = {1, 1, 1};
    int n = 0;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    while (p < end) {
        if (n == 3) return std::nullopt;
        auto [next, ec] = std::from_chars(p, end, values[n]);
        if (ec != std::errc{} || next == p) return std::nullopt;
        ++n;
        p = next;
        if (p < end) {
            if (*p != 'x' && *p != 'X' && *p != ',') return std::nullopt;
            ++p;
            if (p == end) return std::nullopt;
        }
    }
    if (n == 0) return std::nullopt;
    return Dim3{values[0], values[1], values[2]};
}

} // namespace kc
