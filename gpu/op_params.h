#pragma once
// The per-frame inputs every operation reads. A plain struct passed by value to kernels.
#include "pixel.h"

namespace kc {

struct OpParams {
    int width = 800;
    int height = 800;
    float weight = 0.75f; // blend: weight*A + (1-weight)*B
    int cell = 80;        // checkerboard cell size in pixels
};

} // namespace kc
