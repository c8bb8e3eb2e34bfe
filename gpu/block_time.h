#pragma once
// One block of a launch on the SM timeline: where it ran and when. Written by the block's thread
// 0 on a GPU (%smid, %globaltimer at entry and after the block's last barrier), by its worker in
// the CPU grid emulator (the worker's number, steady_clock); read on the host (gpu/block_timeline.h).
namespace kc {

struct BlockTime {
    unsigned long long start = 0, end = 0; // ns: %globaltimer on a GPU, steady_clock on the CPU
    unsigned sm = 0;                       // %smid, or the emulator's worker
    unsigned ran = 0;                      // 1 once the block ran; 0: never (step mode, a stopped frame)
};

// The most blocks one launch records (24 bytes each): a larger grid paints without a timeline.
inline constexpr long long kMaxTimelineBlocks = 1LL << 20;

} // namespace kc
