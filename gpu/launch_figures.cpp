#include "gpu/launch_figures.h"

namespace kc {

WarpFigures warp_figures(const Dim3& block, int warp_size) {
    WarpFigures f;
    f.threads_per_block = block.count();
    if (warp_size <= 0 || f.threads_per_block <= 0) return f;
    f.warps_per_block = (f.threads_per_block + warp_size - 1) / warp_size;
    f.idle_lanes_last_warp = static_cast<int>(f.warps_per_block * warp_size - f.threads_per_block);
    return f;
}

OccupancyFigures occupancy_figures(const Dim3& block, const Dim3& grid, int blocks_per_sm, int sm_count,
                                   int max_threads_per_sm, int warp_size) {
    OccupancyFigures o;
    o.blocks_per_sm = blocks_per_sm;
    o.blocks = grid.count();
    const WarpFigures w = warp_figures(block, warp_size);
    o.resident_warps_per_sm = 1LL * blocks_per_sm * w.warps_per_block;
    o.max_warps_per_sm = warp_size > 0 ? max_threads_per_sm / warp_size : 0;
    o.occupancy = o.max_warps_per_sm > 0 ? double(o.resident_warps_per_sm) / double(o.max_warps_per_sm) : 0.0;
    o.blocks_per_wave = 1LL * blocks_per_sm * sm_count;
    if (o.blocks_per_wave > 0) {
        o.full_waves = o.blocks / o.blocks_per_wave;
        o.tail_blocks = o.blocks % o.blocks_per_wave;
    }
    return o;
}

} // namespace kc
