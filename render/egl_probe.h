#pragma once
// Whether headless rendering could find an EGL device here, without making a context: for
// `kcanvas --version`, the line a bug report needs.
#include <string>

namespace kc {

struct EglProbe {
    int devices = 0;     // EGL devices on the device platform (a GPU's, or Mesa's software one)
    std::string problem; // why there are none: no libEGL.so.1, no device platform, ...
};

EglProbe probe_egl();

} // namespace kc
