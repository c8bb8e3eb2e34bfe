#pragma once
// The cpu backend's frames run on a thread of their own, so the window can answer while a slow
// one paints (matmul at N = 2048 takes seconds on two cores): the painter waits a short while for
// a frame, and when it takes longer the window draws the last finished picture meanwhile
// (FramePainter::paint_responsive). The worker owns everything the frame writes; the painter
// puts a finished frame on the canvas, on the GL thread.
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/cpu_emulator.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"
#include "render/cpu_user_kernel.h"

namespace kc {

// The input images a cpu frame reads, copied once per change of the images, and kept alive by
// every frame that reads them (a new image may load while a frame paints).
struct CpuInputs {
    std::vector<Pixel> a, b; // width*height each, or empty
};

struct CpuFrame {
    PaintJob job; // as painted: its size says which canvas it fits
    Dim3 grid;    // the grid it launched
    std::vector<Pixel> pixels;
    std::vector<unsigned> writer_sm;    // which worker wrote each pixel; empty unless recorded
    std::vector<BlockTime> block_times; // the SM timeline: each block's worker and times; empty unless recorded
    OpOutputs outputs;
    std::optional<std::string> refusal; // the emulator's limits: the pixels are not a picture then
    double micros = 0.0;                // the emulator's wall time
};

// What a cpu frame records besides its pixels.
struct CpuRecords {
    bool writers = false;  // which worker wrote each pixel (the inspector)
    bool timeline = false; // each block's worker, start and end (the SM timeline)
};

// Paints one cpu frame in the calling thread (a frame someone waits for: headless, the tuner).
// `storage`: the pixels of a frame shown already, to paint into again (a fresh buffer of a 4K
// canvas would be paged in inside the timed kernel). The user's kernel runs in `user_kernel`'s
// sandbox (null: refused).
CpuFrame paint_cpu_frame(const CpuGridEmulator& emulator, CpuUserKernel* user_kernel, const PaintJob& job,
                         const ResolvedLaunch& resolved, CpuRecords records,
                         const std::shared_ptr<const CpuInputs>& inputs, std::vector<Pixel> storage = {},
                         const std::atomic<bool>* stop = nullptr);

class CpuPaintWorker {
public:
    CpuPaintWorker(const CpuGridEmulator& emulator, CpuUserKernel& user_kernel)
        : emulator_(emulator), user_kernel_(user_kernel) {}
    // Stops a frame in flight at its next block (a custom op's frame runs to its end) and waits.
    ~CpuPaintWorker();
    CpuPaintWorker(const CpuPaintWorker&) = delete;
    CpuPaintWorker& operator=(const CpuPaintWorker&) = delete;

    // Starts painting `job` (its launch resolved already), reading `inputs`, on a thread of its own
    // at a lower priority than the window's; only when !busy().
    void start(const PaintJob& job, const ResolvedLaunch& resolved, CpuRecords records,
               std::shared_ptr<const CpuInputs> inputs, std::vector<Pixel> storage = {});
    // A frame is in flight, finished or not, and not yet taken.
    bool busy() const { return frame_.valid(); }
    // Waits up to `wait` for the frame in flight; returns it once finished, and the worker is idle.
    std::optional<CpuFrame> take(std::chrono::milliseconds wait);
    CpuFrame take(); // waits as long as it takes; only when busy()
    // Seconds since the frame in flight started; 0 when idle.
    double seconds_painting() const;

private:
    const CpuGridEmulator& emulator_;
    CpuUserKernel& user_kernel_; // used by the frame's thread only while a frame is in flight
    std::future<CpuFrame> frame_;
    std::atomic<bool> stop_{false};
    std::chrono::steady_clock::time_point started_;
};

} // namespace kc
