#include "gpu/cpu_emulator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "gpu/ops/op_list.h"
#include "gpu/registry.h"

namespace kc {

namespace {

struct EmulatedLaunch {
    const PaintJob* job;
    Dim3 grid;
    Pixel* out;
    PixelRecord record;
    const std::atomic<bool>* stop; // null: never stopped
};

// Whether a block can write any pixel, so that the blocks of a huge grid that lie past the canvas
// cost nothing. Conservative: where the kernel's 32-bit index arithmetic could wrap, the block runs.
bool block_reaches_canvas(const ThreadCoords& t, const LaunchConfig& l, int width, int height) {
    if (is_tiled(l.mapping)) {
        const unsigned long long step = l.mapping == Mapping::TwoD ? unsigned(l.pixels_per_thread) : 1ULL;
        const unsigned long long u_end = (1ULL * t.bx * t.bdx + t.bdx) * step, v_end = 1ULL * t.by * t.bdy + t.bdy;
        if (u_end > 0xFFFFFFFFULL || v_end > 0xFFFFFFFFULL) return true; // may wrap, as on the GPU
        const unsigned long long u0 = 1ULL * t.bx * t.bdx * step, v0 = 1ULL * t.by * t.bdy;
        const bool columns = l.mapping == Mapping::Columns;
        return u0 < unsigned(columns ? height : width) && v0 < unsigned(columns ? width : height);
    }
    // linear and grid-stride: the block's first thread index (64-bit in the kernel too).
    const ThreadCoords first{t.bx, t.by, t.bz, 0, 0, 0, t.bdx, t.bdy, t.bdz, t.gdx, t.gdy, t.gdz};
    return linear_thread_index(first) < 1ULL * width * height;
}

unsigned long long steady_ns() {
    return static_cast<unsigned long long>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// Runs blocks [first, last) in launch order (x fastest, then y, then z); `sm` is the worker. With
// a timeline record, each block's worker and its start and end, a block past the canvas too (it
// ran and returned, as on a GPU).
template <class Op>
void run_op_blocks(const EmulatedLaunch& l, long long first, long long last, unsigned sm) {
    const Op op{};
    const PaintJob& job = *l.job;
    const Dim3 b = job.launch.block;
    ThreadCoords t{};
    t.bdx = b.x, t.bdy = b.y, t.bdz = b.z;
    t.gdx = l.grid.x, t.gdy = l.grid.y, t.gdz = l.grid.z;
    for (long long block = first; block < last; ++block) {
        if (l.stop && l.stop->load(std::memory_order_relaxed)) return;
        t.bx = static_cast<unsigned>(block % l.grid.x);
        t.by = static_cast<unsigned>((block / l.grid.x) % l.grid.y);
        t.bz = static_cast<unsigned>(block / (1LL * l.grid.x * l.grid.y));
        BlockTime* timed = l.record.blocks ? l.record.blocks + block : nullptr;
        const unsigned long long start = timed ? steady_ns() : 0;
        if (block_reaches_canvas(t, job.launch, job.params.width, job.params.height))
            for (t.tz = 0; t.tz < t.bdz; ++t.tz)
                for (t.ty = 0; t.ty < t.bdy; ++t.ty)
                    for (t.tx = 0; t.tx < t.bdx; ++t.tx)
                        paint_thread(op, job.params, t, job.launch.mapping, job.launch.pixels_per_thread, job.view, sm,
                                     LinearSink{l.out}, l.record);
        if (timed) *timed = BlockTime{start, steady_ns(), sm, 1};
    }
}

template <class Op>
void run_blocks(const EmulatedLaunch& l, long long first, long long last, unsigned sm) {
    if constexpr (Op::custom || Op::user_code) {
        (void)l, (void)first, (void)last, (void)sm; // custom ops and user code never reach the grid emulator
    } else {
        run_op_blocks<Op>(l, first, last, sm);
    }
}

using BlockRunner = void (*)(const EmulatedLaunch&, long long, long long, unsigned);
constexpr std::array kRunners{
#define KC_OP(Functor) static_cast<BlockRunner>(&run_blocks<Functor>),
#include "gpu/ops/op_list.h"
#undef KC_OP
};

// Why a frame would run past kMaxCpuFrameSeconds on `threads` hardware threads, from its cost:
// matmul's FLOPs, the fractals' pixels x iterations (every pixel may stay inside the set: the
// default view's is a third of the picture).
std::optional<std::string> cpu_cost_refusal(const PaintJob& job, unsigned threads) {
    const OpInfo& info = op_registry()[job.op];
    const OpParams& p = job.params;
    if (uses_param(info, "matmul-n")) {
        const double seconds = info.flops(p) / (kCpuMatmulFlopsPerThread * threads);
        if (seconds > kMaxCpuFrameSeconds)
            return fmt::format("matmul N = {} is {:.3g} GFLOP (2*N^3): about {:.0f} s per frame on the cpu backend "
                               "({} threads at ~{:g} GFLOP/s each); it refuses frames over {:g} s: choose a smaller "
                               "N, or a CUDA backend",
                               p.matmul_n, info.flops(p) / 1e9, seconds, threads, kCpuMatmulFlopsPerThread / 1e9,
                               kMaxCpuFrameSeconds);
    }
    if (uses_param(info, "iter")) {
        const double pixels = double(p.width) * p.height, budget = kCpuIterationsPerThread * threads;
        const double seconds = pixels * p.max_iter / budget;
        if (seconds > kMaxCpuFrameSeconds)
            return fmt::format("{} at {}x{} with {} iterations is up to {:.3g} iterations (pixels x iterations): "
                               "about {:.0f} s per frame on the cpu backend ({} threads at ~{:g} M iterations/s "
                               "each); it refuses frames over {:g} s: lower the iterations to {} or less (or the "
                               "canvas size), or use a CUDA backend",
                               info.name, p.width, p.height, p.max_iter, pixels * p.max_iter, seconds, threads,
                               kCpuIterationsPerThread / 1e6, kMaxCpuFrameSeconds,
                               std::max(1LL, (long long)(kMaxCpuFrameSeconds * budget / pixels)));
    }
    return std::nullopt;
}

// The start view's pass: block numbers into the colours of their blocks' start times.
void colour_by_start(Pixel* out, int width, long long pixels, const BlockTime* blocks, long long count) {
    unsigned long long first = ~0ULL, last = 0;
    for (long long n = 0; n < count; ++n)
        if (blocks[n].ran) first = std::min(first, blocks[n].start), last = std::max(last, blocks[n].start);
    for (long long i = 0; i < pixels; ++i)
        out[i] = start_view_pixel(out[i], blocks, static_cast<unsigned long long>(count), first, last,
                                  static_cast<int>(i % width), static_cast<int>(i / width));
}

} // namespace

double steady_clock_step_ns() {
    unsigned long long smallest = ~0ULL, before = steady_ns();
    for (int i = 0; i < 100000; ++i) {
        const unsigned long long now = steady_ns();
        if (now > before) smallest = std::min(smallest, now - before);
        before = now;
    }
    return smallest == ~0ULL ? 0.0 : double(smallest);
}

CpuGridEmulator::CpuGridEmulator(unsigned workers)
    : workers_(workers ? workers : std::max(1u, std::thread::hardware_concurrency())) {}

std::optional<std::string> CpuGridEmulator::paint(const PaintJob& job, Pixel* out, OpOutputs* outputs,
                                                  PixelRecord record) const {
    const ResolvedLaunch resolved = resolve_launch(job, universal_limits());
    if (resolved.refusal) return resolved.refusal;
    return paint(job, resolved, out, outputs, record);
}

std::optional<std::string> CpuGridEmulator::paint(const PaintJob& job, const ResolvedLaunch& plan, Pixel* out,
                                                  OpOutputs* outputs, PixelRecord record,
                                                  const std::atomic<bool>* stop) const {
    if (plan.refusal) return plan.refusal;
    if (op_registry()[job.op].user_code) return std::string(kCpuCannotRunUserCode);
    if (!op_registry()[job.op].custom && plan.grid.count() > kMaxEmulatedBlocks)
        return fmt::format("grid {} has {} blocks: the cpu backend emulates at most {} per frame (a GPU takes up to "
                           "2^31-1 x 65535 x 65535); use a smaller grid, or auto",
                           to_string(plan.grid), plan.grid.count(), kMaxEmulatedBlocks);
    if (auto refusal = cpu_cost_refusal(job, std::max(1u, std::thread::hardware_concurrency()))) return refusal;
    PaintJob prepared = job;
    prepare_divisors(prepared.params);
    if (const OpInfo& info = op_registry()[job.op]; info.custom) {
        info.cpu_paint(prepared.params, out, outputs);
        return std::nullopt;
    }
    const long long pixels = 1LL * job.params.width * job.params.height;
    const bool start_view = job.view == View::Start;
    if (plan.clear_first) // the start view's pass hatches what no block wrote (block number 0)
        for (long long i = 0; i < pixels; ++i)
            out[i] = start_view ? Pixel{0, 0, 0, 0}
                                : uncovered_pixel(static_cast<int>(i % job.params.width),
                                                  static_cast<int>(i / job.params.width));
    std::vector<BlockTime> own_times; // the start view needs the times even when nobody keeps them
    if (start_view && !record.blocks) {
        own_times.resize(static_cast<std::size_t>(plan.grid.count()));
        record.blocks = own_times.data();
    }

    const EmulatedLaunch launch{&prepared, plan.grid, out, record, stop};
    const BlockRunner run = kRunners[job.op];
    const long long blocks = painting_blocks(job, plan.grid); // blocks run in launch order
    // Workers take chunks of consecutive blocks, as SMs take blocks from a launch's queue.
    const long long chunk = std::max<long long>(1, blocks / (8LL * workers_));
    std::atomic<long long> next{0};
    auto worker = [&](unsigned sm) {
        for (long long first; (first = next.fetch_add(chunk)) < blocks;)
            run(launch, first, std::min(blocks, first + chunk), sm);
    };
    if (blocks == 0) return std::nullopt;
    const unsigned helpers = static_cast<unsigned>(std::min<long long>(workers_, blocks)) - 1;
    std::vector<std::jthread> pool;
    pool.reserve(helpers);
    for (unsigned w = 1; w <= helpers; ++w) pool.emplace_back(worker, w);
    worker(0);
    pool.clear(); // joins: every block ran, or the stop was seen
    if (stop && stop->load()) return std::string("painting stopped before the frame was finished");
    if (start_view) colour_by_start(out, job.params.width, pixels, record.blocks, plan.grid.count());
    return std::nullopt;
}

} // namespace kc
