#pragma once
// Launch configuration: block and grid shape, how threads map to pixels, and the checks that run
// before any launch so an illegal configuration is refused with a message instead of failing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kc {

struct Dim3 {
    int x = 1, y = 1, z = 1;
    long long count() const { return 1LL * x * y * z; }
    bool operator==(const Dim3&) const = default;
};

// How a thread's indices become the pixel (or pixels) it paints.
enum class Mapping {
    TwoD,       // x = blockIdx.x*blockDim.x + threadIdx.x, y likewise
    Linear,     // the PyCUDA tutorial's flattening of (block, thread) into one pixel index
    GridStride, // linear index, then a loop with the stride of the whole grid
    Columns,    // 2d with x and y exchanged: a warp's lanes (threadIdx.x) walk down a column, so
                // each store of a warp lands in 32 different cache lines (the uncoalesced lesson)
};
// In the order the panel lists them: columns beside 2d, to compare the two.
constexpr Mapping kAllMappings[] = {Mapping::TwoD, Mapping::Columns, Mapping::Linear, Mapping::GridStride};
std::string_view mapping_name(Mapping m);
std::optional<Mapping> parse_mapping(std::string_view name);
std::string mapping_names(); // "2d, columns, linear, grid-stride"

// 2d and columns lay blocks over the picture as rectangles, as the grid lays them out; the other
// mappings flatten (block, thread) into a pixel index.
constexpr bool is_tiled(Mapping m) { return m == Mapping::TwoD || m == Mapping::Columns; }
// A tiled mapping's pair in the grid's axes (blockIdx/threadIdx .x, .y) as the picture's axes
// (x across, y down), or back: the same for 2d, exchanged for columns. The one place the host
// decides which picture axis a grid axis walks.
inline Dim3 grid_to_picture(Mapping m, const Dim3& d) { return m == Mapping::Columns ? Dim3{d.y, d.x, d.z} : d; }

struct LaunchConfig {
    Dim3 block{32, 8, 1};
    Dim3 grid{1, 1, 1}; // used only when auto_grid is false
    bool auto_grid = true;
    Mapping mapping = Mapping::TwoD;
    // 1, or 4 with the 2d mapping: each thread paints 4 neighbours in x with one 16-byte store,
    // the access width a memory-bound kernel needs to reach the copy bandwidth.
    int pixels_per_thread = 1;
    // Own launches only (a custom op's kernels): each thread also paints the rows below its own,
    // rows_per_thread in all (the tiled box blur: 4 pixels by 2 rows). Always 1 for the panel's.
    int rows_per_thread = 1;
    bool operator==(const LaunchConfig&) const = default;
};

// The pixels one block of a tiled mapping covers: its width and height in the picture.
inline Dim3 block_tile(const LaunchConfig& c) {
    return grid_to_picture(c.mapping, {c.block.x * c.pixels_per_thread, c.block.y * c.rows_per_thread, 1});
}

// The PyCUDA tutorial's launch: block (50,20,1), grid (80,8), linear indexing over 800x800.
LaunchConfig tutorial_preset();

// Limits a launch must respect. universal_limits() holds on every CUDA GPU, so it can be checked
// on a machine with no GPU at all; a device's own limits come from cudaGetDeviceProperties.
struct DeviceLimits {
    int max_threads_per_block = 1024;
    Dim3 max_block{1024, 1024, 64};
    long long max_grid_x = 2147483647LL;
    int max_grid_y = 65535;
    int max_grid_z = 65535;
};
DeviceLimits universal_limits();

// Largest canvas side we accept: the GL texture limit on current GPUs, and a guard against
// absurd allocations from a typo.
constexpr int kMaxCanvasSide = 16384;
std::optional<std::string> canvas_size_error(int width, int height);

// The grid that covers a width x height image with this block and mapping (rounded up).
Dim3 auto_grid(const Dim3& block, int width, int height, Mapping mapping, int pixels_per_thread = 1,
               int rows_per_thread = 1);
// The grid a launch will use: auto_grid() or the hand-set one.
Dim3 resolved_grid(const LaunchConfig& config, int width, int height);

// Why this launch cannot run on a device with these limits, naming the limit and the numbers;
// nullopt when it can.
std::optional<std::string> launch_error(const LaunchConfig& config, int width, int height, const DeviceLimits& limits);

// Which pixels a launch reaches, counted from the mapping's formulas (no launch needed).
struct Coverage {
    long long threads = 0;              // threads launched
    long long pixels = 0;               // pixels in the image
    long long covered_pixels = 0;       // pixels at least one thread writes
    long long repeated_writes = 0;      // writes beyond the first to an already-written pixel
    long long multi_written_pixels = 0; // pixels more than one thread writes (the last write wins, unordered)
    long long idle_threads = 0;         // threads the bounds check sends home: they own no pixel
    bool covers_all() const { return covered_pixels == pixels; }
};
Coverage coverage(const LaunchConfig& config, int width, int height);

std::string to_string(const Dim3& d); // "50x20x1"
// Parses "X", "XxY" or "XxYxZ" (missing dimensions are 1). nullopt on anything else.
std::optional<Dim3> parse_dim3(std::string_view text);

} // namespace kc
