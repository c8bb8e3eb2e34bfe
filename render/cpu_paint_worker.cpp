#include "render/cpu_paint_worker.h"

#include <sys/resource.h>
#include <unistd.h>

#include <utility>

#include "gpu/registry.h"
#include "gpu/timing.h"

namespace kc {

namespace {

// The window's own thread comes first: a frame that takes every core for seconds must not take
// the time the panel needs to answer a click. Threads the emulator starts inherit this.
constexpr int kPaintNiceness = 10;

} // namespace

CpuFrame paint_cpu_frame(const CpuGridEmulator& emulator, CpuUserKernel* user_kernel, const PaintJob& painted,
                         const ResolvedLaunch& resolved, CpuRecords records,
                         const std::shared_ptr<const CpuInputs>& inputs, std::vector<Pixel> storage,
                         const std::atomic<bool>* stop) {
    CpuFrame f;
    f.pixels = std::move(storage);
    PaintJob job = painted;
    const std::size_t n = std::size_t(job.params.width) * std::size_t(job.params.height);
    if (inputs) {
        job.params.src_a = inputs->a.size() == n ? inputs->a.data() : nullptr;
        job.params.src_b = inputs->b.size() == n ? inputs->b.data() : nullptr;
    }
    f.pixels.resize(n);
    const bool record_writers = records.writers;
    PixelRecord record;
    if (records.timeline && !resolved.refusal && resolved.grid.count() <= kMaxTimelineBlocks) {
        f.block_times.resize(static_cast<std::size_t>(resolved.grid.count()));
        record.blocks = f.block_times.data();
    }
    if (record_writers) {
        f.writer_sm.resize(n);
        record.sm = f.writer_sm.data();
    }
    const auto t0 = std::chrono::steady_clock::now();
    if (op_registry()[job.op].user_code && user_kernel && !resolved.refusal)
        f.refusal = user_kernel->paint(job, resolved, f.pixels.data(), job.params.src_a, job.params.src_b,
                                       record_writers ? &f.writer_sm : nullptr, f.outputs);
    else
        f.refusal = emulator.paint(job, resolved, f.pixels.data(), &f.outputs, record, stop);
    f.micros = micros_since(t0);
    f.outputs.histogram_mismatches = -1;           // one plain C++ implementation: nothing to compare
    job.params.src_a = job.params.src_b = nullptr; // `inputs` may die with the caller
    f.job = job;
    f.grid = resolved.grid;
    return f;
}

CpuPaintWorker::~CpuPaintWorker() {
    stop_ = true;
    if (frame_.valid()) frame_.wait();
}

void CpuPaintWorker::start(const PaintJob& job, const ResolvedLaunch& resolved, CpuRecords records,
                           std::shared_ptr<const CpuInputs> inputs, std::vector<Pixel> storage) {
    stop_ = false;
    started_ = std::chrono::steady_clock::now();
    frame_ = std::async(std::launch::async, [this, job, resolved, records, inputs = std::move(inputs),
                                             storage = std::move(storage)]() mutable {
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kPaintNiceness); // this thread only (Linux)
        return paint_cpu_frame(emulator_, &user_kernel_, job, resolved, records, inputs, std::move(storage), &stop_);
    });
}

std::optional<CpuFrame> CpuPaintWorker::take(std::chrono::milliseconds wait) {
    if (!frame_.valid() || frame_.wait_for(wait) != std::future_status::ready) return std::nullopt;
    return frame_.get();
}

CpuFrame CpuPaintWorker::take() { return frame_.get(); }

double CpuPaintWorker::seconds_painting() const {
    if (!frame_.valid()) return 0.0;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

} // namespace kc
