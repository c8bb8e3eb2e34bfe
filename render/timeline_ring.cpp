#include "render/timeline_ring.h"

#include <algorithm>

#include "gpu/cuda_check.h"

namespace kc {

TimelineRing::Slot* TimelineRing::free_slot() {
    for (Slot& s : slots_)
        if (!s.pending) return &s;
    return nullptr;
}

BlockTime* TimelineRing::begin(long long blocks, cudaStream_t stream) {
    blocks_ = 0;
    if (blocks <= 0 || blocks > kMaxTimelineBlocks || !free_slot()) return nullptr;
    const auto n = static_cast<std::size_t>(blocks);
    if (device_.size() < n) device_ = DeviceBuffer<BlockTime>(n);
    KC_CUDA_CHECK_THROW(cudaMemsetAsync(device_.data(), 0, n * sizeof(BlockTime), stream));
    blocks_ = blocks;
    return device_.data();
}

void TimelineRing::end(const BlockTimeline& what, cudaStream_t stream) {
    Slot* s = free_slot();
    if (!s || blocks_ <= 0) return;
    const auto n = static_cast<std::size_t>(blocks_);
    if (s->host.size() < n) s->host = PinnedBuffer<BlockTime>(n);
    KC_CUDA_CHECK_THROW(
        cudaMemcpyAsync(s->host.data(), device_.data(), n * sizeof(BlockTime), cudaMemcpyDeviceToHost, stream));
    KC_CUDA_CHECK_THROW(cudaEventRecord(s->ready.get(), stream));
    s->what = what;
    s->what.blocks.clear();
    s->what.blocks.resize(n); // filled when taken
    s->pending = true;
    s->order = ++queued_;
    blocks_ = 0;
}

std::optional<BlockTimeline> TimelineRing::collect(bool wait) {
    Slot* newest = nullptr;
    for (Slot& s : slots_)
        if (s.pending && (!newest || s.order > newest->order)) newest = &s;
    if (wait && newest) KC_CUDA_CHECK_THROW(cudaEventSynchronize(newest->ready.get()));
    Slot* taken = nullptr;
    for (Slot& s : slots_) {
        if (!s.pending || cudaEventQuery(s.ready.get()) != cudaSuccess) continue;
        s.pending = false;
        if (!taken || s.order > taken->order) taken = &s;
    }
    if (!taken) return std::nullopt;
    BlockTimeline t = std::move(taken->what);
    std::copy_n(taken->host.data(), t.blocks.size(), t.blocks.begin());
    return t;
}

} // namespace kc
