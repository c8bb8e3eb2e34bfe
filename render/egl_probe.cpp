#include "render/egl_probe.h"

#include <glad/egl.h>

namespace kc {

EglProbe probe_egl() {
    EglProbe probe;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        probe.problem = "cannot load libEGL.so.1 (libegl1)";
        return probe;
    }
    EGLint count = 0;
    if (!eglQueryDevicesEXT)
        probe.problem = "no EGL device platform (is a GPU driver's EGL vendor library installed?)";
    else if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0)
        probe.problem = "no EGL device";
    probe.devices = probe.problem.empty() ? count : 0;
    gladLoaderUnloadEGL();
    return probe;
}

} // namespace kc
