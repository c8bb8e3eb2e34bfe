// FramePainter's CUDA side in a build without CUDA (frame_painter_cuda.h): start() makes no
// PainterCuda, and the type is never defined here, so no call below can be reached; they exist
// only so the painter links.
#include <cstdlib>

#include "render/frame_painter_cuda.h"

namespace kc {

namespace {
[[noreturn]] void unreachable_without_cuda() { std::abort(); }
} // namespace

void PainterCudaDeleter::operator()(PainterCuda*) const { unreachable_without_cuda(); }

namespace painter_cuda {

Started start(std::optional<int>) {
    Started started;
    started.interop_why_not = started.cuda_why_not = "this kcanvas was built without CUDA";
    return started;
}

const DeviceInfo& device_info(const PainterCuda&) { unreachable_without_cuda(); }
double copy_gbs(const PainterCuda&) { unreachable_without_cuda(); }
KernelCompile compile_user_kernel(PainterCuda&, std::string_view, std::string_view, KernelMode) {
    unreachable_without_cuda();
}
bool has_user_kernel(const PainterCuda&) { unreachable_without_cuda(); }
const std::string& user_kernel_source(const PainterCuda&) { unreachable_without_cuda(); }
std::optional<std::string> user_kernel_refusal(const PainterCuda&, const Dim3&) { unreachable_without_cuda(); }
std::optional<std::string> attach_sources(PainterCuda&, const SourceImages&, std::size_t, PaintJob&) {
    unreachable_without_cuda();
}
std::optional<std::string> paint(PainterCuda&, const Frame&, Canvas&, PresentTimers&) { unreachable_without_cuda(); }
void leave_frames(PainterCuda&) { unreachable_without_cuda(); }
void queue_after(PainterCuda&, const PainterCuda&) { unreachable_without_cuda(); }
void collect(PainterCuda&, StageTimes&, OpOutputs&, bool, FrameRoute) { unreachable_without_cuda(); }
std::optional<unsigned> sm_of_pixel(PainterCuda&, WriterRecord&, int, int) { unreachable_without_cuda(); }
std::optional<unsigned> user_kernel_block_sm(PainterCuda&, unsigned) { unreachable_without_cuda(); }
std::optional<BlockTimeline> take_timeline(PainterCuda&, bool) { unreachable_without_cuda(); }

} // namespace painter_cuda
} // namespace kc
