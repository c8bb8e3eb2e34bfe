#pragma once
// One way a painted frame reaches the canvas texture. The painter picks one per backend and
// present mode (frame_painter.h); each is a unit of its own: present_cpu, present_staged and
// present_interop (pbo, texture, surface), owning its buffers and timers, and creating the CUDA
// registrations the canvas holds (CanvasLink) for its GL objects.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/ops/op_base.h"
#include "gpu/pixel.h"
#include "gpu/timing.h"
#include "render/canvas.h"
#include "render/gl_timer.h"

namespace kc {

// Per-stage times in microseconds. `map`, `unmap` are CPU wall time of the CUDA calls; `kernel`
// and `copy` are CUDA events (the CPU emulator's wall time for cpu); `upload` is a GL timer query;
// for the texture and surface paths `map`/`unmap` are the texture's and `copy` the copy into it.
// `variant` holds the kernels' times of an op of several variants (naive, tiled, ...) side by side.
struct StageTimes {
    TimingStats map, kernel, unmap, copy, upload;
    std::array<TimingStats, kMaxVariants> variant;
    void clear() {
        map.clear(), kernel.clear(), unmap.clear(), copy.clear(), upload.clear();
        for (TimingStats& v : variant) v.clear();
    }
};

// Where the frame's kernels write: width*height pixels, the canvas' rows top first (device memory
// on the CUDA paths, host memory on cpu), or, when `pixels` is null, the mapped canvas texture
// itself through `surface` (a cudaSurfaceObject_t, set while the texture is mapped; direct).
struct PaintTarget {
    Pixel* pixels = nullptr;
    std::uint64_t surface = 0;
};

// The frame's kernels, prepared by the painter: a path runs them once, into its target, between
// its own map and unmap. A refusal (the CPU emulator's limits) comes back as a value; CUDA
// errors throw.
class FrameKernels {
public:
    virtual std::optional<std::string> run(const PaintTarget& target) = 0;
    // Whether the painter chose to let these kernels write the texture (PaintTarget::surface):
    // a path that can give a surface then does, and skips its buffer and copy.
    virtual bool writes_texture() const { return false; }

protected:
    ~FrameKernels() = default;
};

// What a path records into: the painter's stage times and its GL upload timer.
struct PresentTimers {
    StageTimes& times;
    GlTimerRing& upload;
};

class PresentPath {
public:
    virtual ~PresentPath() = default;
    // Runs `kernels` into this path's target and gets their pixels into `canvas`' texture. A
    // refusal leaves the texture as it was.
    virtual std::optional<std::string> present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) = 0;
    // Moves this path's finished GPU timings into `times`; never blocks unless `wait`.
    virtual void collect_timings(StageTimes& times, bool wait) { (void)times, (void)wait; }
};

// A GL upload, timed by a GL query when one is free.
template <class Upload>
void timed_upload(GlTimerRing& timer, Upload&& upload) {
    const bool timed = timer.begin();
    upload();
    if (timed) timer.end();
}

} // namespace kc
