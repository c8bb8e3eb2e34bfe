#pragma once
// The SM timeline of one launch: which SM (on the CPU backend, which emulator worker) ran each
// block, and when; the waves and the tail it shows, and its Chrome-trace JSON. Plain C++ over the
// BlockTime records the kernels and the emulator write (gpu/block_time.h), testable anywhere.
#include <string>
#include <string_view>
#include <vector>

#include "gpu/block_time.h"
#include "gpu/launch_config.h"
#include "gpu/launch_figures.h"

namespace kc {

enum class TimelineSource { Gpu, CpuWorkers };

struct BlockTimeline {
    TimelineSource source = TimelineSource::Gpu;
    int op = 0; // the op recorded
    Dim3 block{1, 1, 1}, grid{1, 1, 1};
    std::vector<BlockTime> blocks;          // one per block of the grid, launch order (x fastest, then y, z)
    double resolution_ns = 0.0;             // the clock's smallest step, measured when the view started (0: not)
    bool empty() const;                     // no block ran
    unsigned long long first_start() const; // earliest start of a block that ran
    unsigned long long last_end() const;    // latest end
    unsigned long long last_start() const;  // latest start
};

// blockIdx of block number `n` in launch order.
Dim3 block_index(const Dim3& grid, long long n);
// "block (3, 1)", with z when the grid has layers.
std::string block_label(const Dim3& grid, long long n);
// The SMs (workers) that ran a block, sorted: the chart's rows. %smid numbers need not be contiguous.
std::vector<unsigned> timeline_rows(const BlockTimeline& t);
// "SM 12", or "worker 1" on the CPU backend.
std::string row_label(const BlockTimeline& t, unsigned sm);

// Waves as the recording shows them: the blocks that started before the first block ended ran
// together (resident at once), and the rest follow in waves of that many, the last partial wave
// being the tail, which leaves SMs idle.
struct TimelineWaves {
    long long blocks = 0;               // that ran
    long long first_wave = 0;           // blocks that started before the earliest end
    long long waves = 0;                // ceil(blocks / first_wave)
    long long tail_blocks = 0;          // blocks of the last, partial wave (0: it is full)
    unsigned long long tail_start = 0;  // when the last wave's first block started (start order)
    std::vector<unsigned> idle_in_tail; // rows that start no block from tail_start on (none without a tail)
};
TimelineWaves timeline_waves(const BlockTimeline& t);

// The occupancy model of the emulator: each worker runs one block at a time.
OccupancyFigures cpu_worker_occupancy(const Dim3& block, const Dim3& grid, int workers);

// Chrome-trace JSON (chrome://tracing, Perfetto): one "X" event per block, ts and dur in µs from
// the earliest start, pid 0, tid the SM (worker); rows named by thread_name metadata; otherData
// names the launch, the op, the clock's step and `device` (what recorded it), so the window can
// show the file again (app/core/timeline_file.h).
std::string timeline_chrome_trace(const BlockTimeline& t, std::string_view device = {});

} // namespace kc
