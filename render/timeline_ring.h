#pragma once
// The SM timeline's read-back on the CUDA backends, never stalling a frame: the kernel writes one
// device buffer, a copy after it lands in one of a few page-locked slots, and the recording is
// taken frames later, once the slot's event has passed (as the kernel timers are, gpu_timer.h).
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <optional>

#include "gpu/block_timeline.h"
#include "gpu/cuda_raii.h"

namespace kc {

class TimelineRing {
public:
    // Device memory for `blocks` records, zeroed on `stream`, for this frame's kernel; null when
    // every slot still waits for the GPU (this frame records nothing rather than waiting) or the
    // grid has more than kMaxTimelineBlocks blocks.
    BlockTime* begin(long long blocks, cudaStream_t stream);
    // After the kernel (only after a begin that gave memory): queues the copy into the free slot.
    // `what` says whose launch it is; its blocks are ignored.
    void end(const BlockTimeline& what, cudaStream_t stream);
    // The newest recording whose copy has finished since the last call, older ones dropped;
    // `wait`: waits for the newest queued one (the end of a headless run).
    std::optional<BlockTimeline> collect(bool wait);

private:
    struct Slot {
        PinnedBuffer<BlockTime> host;
        CudaEvent ready = CudaEvent::create();
        bool pending = false;
        std::uint64_t order = 0; // when it was queued: the newest finished one wins
        BlockTimeline what;
    };
    Slot* free_slot();
    DeviceBuffer<BlockTime> device_;
    std::array<Slot, 3> slots_;
    long long blocks_ = 0; // of the frame between begin and end
    std::uint64_t queued_ = 0;
};

} // namespace kc
