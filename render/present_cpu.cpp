#include "render/present_cpu.h"

namespace kc {

std::optional<std::string> CpuPresent::present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) {
    pixels_.resize(canvas.pixel_count());
    if (auto refusal = kernels.run({pixels_.data()})) return refusal;
    timed_upload(timers.upload, [&] { canvas.upload_from_host(pixels_.data()); });
    return std::nullopt;
}

} // namespace kc
