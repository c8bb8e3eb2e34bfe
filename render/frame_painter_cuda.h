#pragma once
// FramePainter's CUDA side behind a few plain calls, so that frame_painter.cpp builds the same way
// with and without CUDA: CMake compiles frame_painter_cuda.cpp (the launches and the CUDA present
// paths) when it finds CUDA, and frame_painter_cpu_only.cpp otherwise, whose start() makes no
// PainterCuda; the painter calls the rest only on the one start() made.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/block_timeline.h"
#include "gpu/cuda_device.h"
#include "gpu/launch_config.h"
#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"
#include "gpu/user_kernel.h"
#include "render/backend.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/io/source_images.h"
#include "render/present_path.h"

namespace kc {

class WriterRecord;

namespace painter_cuda {

struct Started {
    PainterCudaPtr cuda;         // null when CUDA does not work here
    std::string interop_why_not; // why cuda-interop is unavailable ("" when it works)
    std::string cuda_why_not;    // why neither CUDA backend is ("" when cuda-staged works)
    std::vector<int> gl_gpus;    // the CUDA devices the GL context runs on
};
// Starts CUDA on `gpu` (--gpu), by default on the GPU the GL context runs on (needs the context
// current); interop is unavailable, with the reason, when the two differ.
Started start(std::optional<int> gpu);

const DeviceInfo& device_info(const PainterCuda& cuda);
double copy_gbs(const PainterCuda& cuda);

KernelCompile compile_user_kernel(PainterCuda& cuda, std::string_view source, std::string_view file_name,
                                  KernelMode mode);
bool has_user_kernel(const PainterCuda& cuda);
const std::string& user_kernel_source(const PainterCuda& cuda);
// Why the user's kernel cannot launch `block` (or none is compiled); nullopt when it can.
std::optional<std::string> user_kernel_refusal(const PainterCuda& cuda, const Dim3& block);

// Points run.params.src_a/src_b at the input images on the device, uploaded once per change.
std::optional<std::string> attach_sources(PainterCuda& cuda, const SourceImages& sources, std::size_t pixels,
                                          PaintJob& run);

// One frame on a CUDA backend, as FramePainter::paint resolved it.
struct Frame {
    Backend backend;
    Present present;
    bool writes_texture; // the route is direct: the op's kernel writes the texture itself
    const PaintJob& job; // with the input images attached
    const ResolvedLaunch& resolved;
    bool both_variants;
    WriterRecord& writers;
    bool record_writers;
    bool record_timeline = false; // the SM timeline (take_timeline reads it back)
};
// Runs the frame's kernels through the present path of its backend and present mode.
std::optional<std::string> paint(PainterCuda& cuda, const Frame& frame, Canvas& canvas, PresentTimers& timers);
// The frames went to the cpu backend: CUDA copies still in flight are no stage of them.
void leave_frames(PainterCuda& cuda);
// What `cuda` launches from now on starts after what `before` has launched so far (an event on
// its stream that `cuda`'s stream waits for; the CPU does not wait).
void queue_after(PainterCuda& cuda, const PainterCuda& before);

// Finished kernel and copy timings into `times` (copies only when the last frame took one, i.e.
// its `route` was not direct), finished read-backs into `outputs`; never blocks unless `wait`.
void collect(PainterCuda& cuda, StageTimes& times, OpOutputs& outputs, bool wait, FrameRoute route);
// Which SM wrote pixel (x, y) in the last paint that kept a record.
std::optional<unsigned> sm_of_pixel(PainterCuda& cuda, WriterRecord& writers, int x, int y);
// The newest SM timeline read back (frames after its launch; `wait`: the last one queued).
std::optional<BlockTimeline> take_timeline(PainterCuda& cuda, bool wait);
// The SM that ran the block of the user kernel's writer `word` (its record; read synchronously).
std::optional<unsigned> user_kernel_block_sm(PainterCuda& cuda, unsigned word);

} // namespace painter_cuda
} // namespace kc
