#pragma once
// The inverse of the mappings: which thread writes a given pixel, computed on the host from the
// same formulas paint_thread uses forwards, so the inspector needs no read-back to name a thread.
#include <string>
#include <vector>

#include "gpu/launch_config.h"

namespace kc {

struct PixelWriter {
    bool covered = false;                 // false: no thread writes this pixel (the rest is unset)
    Dim3 block_idx{0, 0, 0};              // blockIdx of the writer in z layer 0
    Dim3 thread_idx{0, 0, 0};             // threadIdx likewise
    long long block_in_launch = 0;        // blockIdx flattened in launch order (x fastest)
    int thread_in_block = 0;              // threadIdx flattened (x fastest)
    int warp = 0, lane = 0;               // thread_in_block / 32 and % 32
    unsigned long long global_thread = 0; // block_in_launch * threads per block + thread_in_block
    long long pass = 0;                   // grid-stride: the loop iteration that reaches the pixel
    long long writers = 0;                // threads that write it: one per z layer of block and grid
};

// Who writes pixel (x, y) of a width x height canvas under `config` with grid `grid`.
PixelWriter thread_of_pixel(const LaunchConfig& config, const Dim3& grid, int width, int height, int x, int y);

// The pixels a block (layer z = 0) writes, as rectangles; empty for a block outside the grid.
struct PixelRect {
    int x = 0, y = 0, w = 0, h = 0; // top-left origin, image pixels
    bool operator==(const PixelRect&) const = default;
};
// For 2d one rectangle; for linear up to three (a partial first row, whole rows, a partial last
// row); for grid-stride the same for every pass, at most `max_rects` in all.
std::vector<PixelRect> block_pixel_rects(const LaunchConfig& config, const Dim3& grid, int width, int height,
                                         const Dim3& block_idx, std::size_t max_rects = 64);
// The outline of the pixels a block writes, as closed polygons through pixel corners (top-left
// origin): one per contiguous run, so a 1D block spanning rows is one shape without inner edges.
struct PixelPoint {
    int x = 0, y = 0;
};
using Outline = std::vector<PixelPoint>;
std::vector<Outline> block_outlines(const LaunchConfig& config, const Dim3& grid, int width, int height,
                                    const Dim3& block_idx, std::size_t max_outlines = 64);

// The pixels at least one thread writes, as rectangles.
std::vector<PixelRect> covered_rects(const LaunchConfig& config, const Dim3& grid, int width, int height);

// The mapping's formulas with this launch's numbers in them, one statement a line, e.g.
// "x = blockIdx.x*50 + threadIdx.x".
std::string mapping_formula(const LaunchConfig& config, const Dim3& grid, int width, int height);

// What the first warp of a launch (block 0, z layer 0, lanes 0..31) stores in one instruction:
// the rows it writes and the 128-byte cache lines it touches. Neighbouring 4-byte stores share a
// line (coalesced: 32 lanes, 1 line); 32 stores a row apart each need their own (columns: 32 lines).
constexpr int kCacheLineBytes = 128;
constexpr int kSectorBytes = 32; // DRAM and L2 move 32-byte sectors: a line is 4 of them
struct WarpStores {
    int lanes = 0;       // lanes that store (the others find no pixel)
    int rows = 0;        // picture rows they store to
    int cache_lines = 0; // 128-byte lines those stores touch
    int sectors = 0;     // 32-byte sectors they touch
    int ideal_lines = 0; // lines the same bytes need when they are neighbours
};
WarpStores first_warp_stores(const LaunchConfig& config, int width, int height, int warp_size = 32);

} // namespace kc
