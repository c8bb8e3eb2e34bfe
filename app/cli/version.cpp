#include "app/cli/version.h"

#include <fmt/format.h>

#include <vector>

#include "app/core/data_dir.h"
#include "gpu/user_kernel.h"
#include "kc_build_info.h" // generated: KC_VERSION, KC_GIT_COMMIT, KC_CUDA_VERSION, KC_CUDA_ARCHS
#include "render/egl_probe.h"
#ifdef KC_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/cuda_device.h"
#endif

namespace kc {

namespace {

struct Field {
    std::string value;   // what the first line shows, e.g. "NVRTC: yes"
    std::string details; // why something is missing, for a line of its own ("" when nothing is)
};

std::string built_with_cuda() {
    if (std::string(KC_CUDA_VERSION).empty()) return "CUDA: not built in (CPU backend only)";
    return fmt::format("CUDA {} (sm {})", KC_CUDA_VERSION, KC_CUDA_ARCHS);
}

Field nvrtc_field() {
    if (auto why = nvrtc_unavailable_reason()) return {"NVRTC: no", *why};
    return {"NVRTC: yes", ""};
}

Field egl_field() {
    const EglProbe egl = probe_egl();
    if (egl.devices == 0) return {"EGL: no", "headless rendering needs EGL: " + egl.problem};
    return {fmt::format("EGL: {} device{}", egl.devices, egl.devices == 1 ? "" : "s"), ""};
}

// A one-line summary of the CUDA devices; `kcanvas --list-gpus` (issue 15) lists each of them.
Field gpu_field() {
#ifdef KC_HAVE_CUDA
    if (auto why = cuda_unavailable_reason()) return {"GPU: none", *why};
    int count = 0;
    cudaGetDeviceCount(&count);
    try {
        const DeviceInfo d = query_device(0);
        return {fmt::format("GPU: {} (sm_{}{}){}", d.name, d.cc_major, d.cc_minor,
                            count > 1 ? fmt::format(" and {} more", count - 1) : ""),
                ""};
    } catch (const std::exception& e) {
        return {"GPU: unusable", e.what()};
    }
#else
    return {"GPU: not used (built without CUDA)", ""};
#endif
}

} // namespace

std::string version_name() { return std::string("kcanvas ") + KC_VERSION; }

std::string version_report() {
    const std::vector<Field> probes = {nvrtc_field(), egl_field(), gpu_field()};
    std::string line = fmt::format("{}; commit {}; {}", version_name(), KC_GIT_COMMIT, built_with_cuda());
    std::string details;
    for (const Field& f : probes) {
        line += "; " + f.value;
        if (!f.details.empty()) details += "  " + f.details + "\n";
    }
    return line + "\n" + "data: " + data_dir_summary(data_dir()) + "\n" + details;
}

} // namespace kc
