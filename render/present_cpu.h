#pragma once
// The cpu backend's present: the kernels (the CPU grid emulator) write host memory, which GL
// uploads into the texture.
#include <vector>

#include "render/present_path.h"

namespace kc {

class CpuPresent : public PresentPath {
public:
    std::optional<std::string> present(FrameKernels& kernels, Canvas& canvas, PresentTimers& timers) override;

private:
    std::vector<Pixel> pixels_;
};

} // namespace kc
