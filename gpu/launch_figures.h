#pragma once
// Figures about a launch's shape on the hardware: warps per block, idle lanes, and (given what the
// occupancy API says) resident blocks, occupancy and waves. Plain arithmetic, testable anywhere.
#include "gpu/launch_config.h"

namespace kc {

struct WarpFigures {
    long long threads_per_block = 0;
    long long warps_per_block = 0; // rounded up: a partial warp still takes a whole warp slot
    int idle_lanes_last_warp = 0;  // lanes of the last warp no thread fills (0 when full)
};
WarpFigures warp_figures(const Dim3& block, int warp_size = 32);

struct OccupancyFigures {
    int blocks_per_sm = 0; // resident at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor)
    long long resident_warps_per_sm = 0;
    long long max_warps_per_sm = 0;
    double occupancy = 0.0;        // resident warps / max warps per SM
    long long blocks = 0;          // in the grid
    long long blocks_per_wave = 0; // blocks_per_sm * sm_count
    long long full_waves = 0;
    long long tail_blocks = 0; // blocks of the last, partial wave (0: the last wave is full)
    long long waves() const { return full_waves + (tail_blocks > 0 ? 1 : 0); }
    double tail_fill() const { return blocks_per_wave > 0 ? double(tail_blocks) / blocks_per_wave : 0.0; }
};
OccupancyFigures occupancy_figures(const Dim3& block, const Dim3& grid, int blocks_per_sm, int sm_count,
                                   int max_threads_per_sm, int warp_size = 32);

} // namespace kc
