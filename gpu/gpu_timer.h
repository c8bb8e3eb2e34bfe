#pragma once
// Kernel timing that never stalls the frame: a ring of CUDA event pairs, read back with
// cudaEventQuery a few frames after they were recorded.
#include <cuda_runtime_api.h>

#include <vector>

#include "gpu/cuda_raii.h"
#include "gpu/timing.h"

namespace kc {

class GpuTimerRing {
public:
    explicit GpuTimerRing(int slots = 8);
    // Brackets GPU work on `stream`. When every slot still waits for the GPU, this frame is not
    // timed (begin returns false and end must not be called) rather than waiting.
    bool begin(cudaStream_t stream);
    void end(cudaStream_t stream);
    // Calls on_sample(microseconds) for each finished pair, oldest first; never blocks.
    template <class F>
    void collect(F&& on_sample) {
        while (pending_ > 0) {
            Slot& s = slots_[oldest()];
            if (cudaEventQuery(s.stop.get()) != cudaSuccess) break;
            float ms = 0.f;
            KC_CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, s.start.get(), s.stop.get()));
            --pending_;
            on_sample(ms * 1000.0);
        }
    }
    // Waits for all recorded pairs (for the last frame of a headless run or a benchmark).
    template <class F>
    void drain(F&& on_sample) {
        if (pending_ > 0)
            KC_CUDA_CHECK_THROW(cudaEventSynchronize(slots_[(next_ + slots_.size() - 1) % slots_.size()].stop.get()));
        collect(on_sample);
    }

    // Moves the finished samples into `stats`; with `wait`, every recorded one (drain).
    void collect_into(TimingStats& stats, bool wait) {
        auto add = [&](double us) { stats.add(us); };
        if (wait)
            drain(add);
        else
            collect(add);
    }

private:
    struct Slot {
        CudaEvent start, stop;
    };
    std::size_t oldest() const { return (next_ + slots_.size() - pending_) % slots_.size(); }
    std::vector<Slot> slots_;
    std::size_t next_ = 0;    // slot the next begin() uses
    std::size_t pending_ = 0; // recorded, not yet read
};

} // namespace kc
