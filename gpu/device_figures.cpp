#include "gpu/device_figures.h"

#include "gpu/registry.h"

#ifdef KC_HAVE_CUDA
#include "gpu/cuda_paint.h"
#endif

namespace kc {

std::optional<OccupancyFigures> device_occupancy(const DeviceInfo* device, int op, const Dim3& block,
                                                 const Dim3& grid) {
#ifdef KC_HAVE_CUDA
    if (!device || block.count() <= 0 || block.count() > device->limits.max_threads_per_block) return std::nullopt;
    if (op_registry()[op].user_code) return std::nullopt; // the painter holds that kernel, not the registry
    struct Query {
        int ordinal = -1, op = -1;
        long long threads = 0;
        int blocks_per_sm = 0;
    };
    thread_local Query last; // the panel asks once a frame with the same numbers
    if (last.ordinal != device->ordinal || last.op != op || last.threads != block.count()) {
        try {
            last = {device->ordinal, op, block.count(),
                    cuda_max_active_blocks_per_sm(op, static_cast<int>(block.count()))};
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return occupancy_figures(block, grid, last.blocks_per_sm, device->sm_count, device->max_threads_per_sm,
                             device->warp_size);
#else
    (void)device, (void)op, (void)block, (void)grid;
    return std::nullopt;
#endif
}

} // namespace kc
