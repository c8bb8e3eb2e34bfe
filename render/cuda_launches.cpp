#include "render/cuda_launches.h"

#include "gpu/copy_bandwidth.h"
#include "gpu/cuda_check.h"
#include "gpu/cuda_paint.h"
#include "gpu/registry.h"
#include "gpu/user_kernel_cuda.h"

namespace kc {

CudaLaunches::CudaLaunches(int device)
    : info_(query_device(device)), user_kernel_(ComputeCapability{info_.cc_major, info_.cc_minor}) {
    copy_gbs_ = device_copy_gbs(stream_.get()); // once, here: a few ms at start, never on a frame's path
}

std::optional<std::string> CudaLaunches::attach_sources(const SourceImages& sources, std::size_t pixels,
                                                        PaintJob& run) {
    bool sizes_match = true;
    for (int slot = 0; slot < SourceImages::kSlots; ++slot)
        if (sources.fitted(slot) && sources_[slot].size() != pixels) sizes_match = false;
    if (sources_generation_ != sources.generation() || !sizes_match) {
        try {
            for (int slot = 0; slot < SourceImages::kSlots; ++slot) {
                sources_[slot] = DeviceBuffer<Pixel>();
                if (!sources.fitted(slot)) continue;
                sources_[slot] = DeviceBuffer<Pixel>(pixels);
                KC_CUDA_CHECK_THROW(cudaMemcpyAsync(sources_[slot].data(), sources.fitted(slot), sources_[slot].bytes(),
                                                    cudaMemcpyHostToDevice, stream_.get()));
            }
            KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get())); // the host copy may change after this
            sources_generation_ = sources.generation();
        } catch (const CudaError& e) {
            if (is_sticky_error(e.code())) throw CudaContextLost(e.what());
            (void)cudaGetLastError(); // a failed cudaMalloc is not sticky: clear it so later checks don't see it
            for (auto& b : sources_) b = DeviceBuffer<Pixel>();
            sources_generation_ = 0;
            return std::string("the input images do not fit in GPU memory: ") + e.what();
        }
    }
    run.params.src_a = sources_[0].size() ? sources_[0].data() : nullptr;
    run.params.src_b = sources_[1].size() ? sources_[1].data() : nullptr;
    return std::nullopt;
}

void CudaLaunches::launch(const CudaFrame& f, const PaintTarget& target) {
    cudaStream_t s = stream_.get();
    const PaintJob& run = f.job;
    const OpInfo& info = op_registry()[run.op];
    Pixel* out = target.pixels;
    workspace_.user_kernel = user_kernel_.kernel();
    for (int v = 0; f.both_variants && v < info.variants; ++v) { // the other variants first, timed only
        if (v == run.params.variant) continue;
        PaintJob other = run;
        other.params.variant = v;
        const bool t = variant_timer_[v].begin(s);
        cuda_paint(other, f.resolved, out, s, workspace_);
        if (t) variant_timer_[v].end(s);
    }
    // The SM timeline: the per-pixel ops' teaching kernel records it (the buffer zeroed before the timer).
    const bool timeline = f.timeline && out && !info.custom && !info.user_code;
    BlockTime* queued = timeline ? timeline_.begin(f.resolved.grid.count(), s) : nullptr;
    BlockTime* block_times = queued || !out ? queued : cuda_start_view_times(run, f.resolved, s, workspace_);
    // The user's kernel records who wrote each pixel in checked mode, for its views and marks too.
    const bool record = info.user_code ? user_kernel_records(run, workspace_, f.record) : f.record;
    PixelRecord kept = f.writers.for_cuda(record, run.params.width, run.params.height, s);
    kept.blocks = block_times;
    cuda_prepare_paint(run, f.resolved, out, kept, s, workspace_); // hatching and clears: not the kernel's time
    const bool timed = kernel_timer_.begin(s);
    const bool vt = info.variants > 1 && variant_timer_[run.params.variant].begin(s);
    if (!out) // direct: the painter allowed it (direct_write_refusal), so nothing is kept
        cuda_paint_surface(run, f.resolved, static_cast<cudaSurfaceObject_t>(target.surface), s);
    else
        cuda_paint(run, f.resolved, out, s, workspace_, kept);
    if (vt) variant_timer_[run.params.variant].end(s);
    if (timed) kernel_timer_.end(s);
    if (out) cuda_finish_paint(run, f.resolved, out, kept, s, workspace_); // the views' colours: not the kernel's time
    cuda_read_back(run, f.both_variants, s, workspace_, read_back_);
    if (queued) {
        BlockTimeline what;
        what.op = run.op, what.block = f.resolved.launch.block, what.grid = f.resolved.grid;
        timeline_.end(what, s);
    }
}

std::optional<BlockTimeline> CudaLaunches::take_timeline(bool wait) {
    std::optional<BlockTimeline> t = timeline_.collect(wait);
    if (!t) return t;
    if (timer_step_ns_ < 0) timer_step_ns_ = cuda_globaltimer_step_ns(stream_.get()); // once: a short wait
    t->resolution_ns = timer_step_ns_;
    return t;
}

void CudaLaunches::collect(StageTimes& times, OpOutputs& outputs, bool wait) {
    kernel_timer_.collect_into(times.kernel, wait);
    for (int v = 0; v < kMaxVariants; ++v) variant_timer_[v].collect_into(times.variant[v], wait);
    if (wait && read_back_.pending) KC_CUDA_CHECK_THROW(cudaEventSynchronize(read_back_.ready.get()));
    if (read_back_.pending && cudaEventQuery(read_back_.ready.get()) == cudaSuccess)
        cuda_take_read_back(read_back_, outputs);
}

std::optional<unsigned> CudaLaunches::user_kernel_block_sm(unsigned word) {
    const unsigned long long threads = workspace_.recorded_block_threads;
    if (word == 0 || threads == 0) return std::nullopt;
    const unsigned long long block = ((word & 0x0FFFFFFFu) - 1u) / threads;
    if (block >= workspace_.block_sm.size()) return std::nullopt;
    unsigned sm = 0;
    KC_CUDA_CHECK_THROW(
        cudaMemcpyAsync(&sm, workspace_.block_sm.data() + block, sizeof sm, cudaMemcpyDeviceToHost, stream_.get()));
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
    return sm;
}

KernelCompile CudaLaunches::compile_user_kernel(std::string_view source, std::string_view file_name, KernelMode mode) {
    return user_kernel_.compile(source, file_name, mode, [&] {
        faults_lose_the_context([&] { KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get())); });
    });
}

} // namespace kc
