#include "app/core/gpu_list.h"

#include <algorithm>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#ifdef KC_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/cuda_check.h"
#include "gpu/cuda_device.h"
#include "render/cuda_gl_buffer.h"
#endif

namespace kc {

namespace {

CudaGpus query_cuda_gpus() {
#ifdef KC_HAVE_CUDA
    if (auto why = cuda_unavailable_reason()) return {{}, *why};
    try {
        return {cuda_gpus(), {}};
    } catch (const std::exception& e) {
        return {{}, std::string("the CUDA devices cannot be queried: ") + e.what()};
    }
#else
    return {{}, "this kcanvas was built without CUDA"};
#endif
}

// Whether CUDA on `gpu` can register buffers of a GL context on its own EGL device, or why not.
std::optional<std::string> interop_error(int gpu, const std::vector<GpuDescription>& gpus) {
#ifdef KC_HAVE_CUDA
    try {
        const EglHeadlessContext context(gpu);
        KC_CUDA_CHECK_THROW(cudaSetDevice(gpu));
        const GpuPairing pairing = pair_cuda_with_gl(gpu, cuda_devices_for_current_gl(), gpus);
        if (!pairing.interop) return pairing.interop_why_not;
        return gl_buffer_registration_error();
    } catch (const std::exception& e) {
        return e.what();
    }
#else
    (void)gpu, (void)gpus;
    return "this kcanvas was built without CUDA";
#endif
}

std::string egl_line(const EglDeviceSummary& d) {
    std::string details = d.drm_file;
    if (!d.renderer.empty()) details += (details.empty() ? "" : ", ") + d.renderer;
    return fmt::format("EGL device {}{}", d.index, details.empty() ? "" : " (" + details + ")");
}

} // namespace

const CudaGpus& cuda_gpu_list() {
    static const CudaGpus gpus = query_cuda_gpus();
    return gpus;
}

GpuChoice resolve_gpu_option(std::string_view spec) {
    const CudaGpus& list = cuda_gpu_list();
    return choose_gpu(spec, list.gpus, list.why_none);
}

GpuList list_gpus(bool probe_interop) {
    GpuList list;
    const CudaGpus& cuda = cuda_gpu_list();
    list.why_no_gpu = cuda.why_none;
    list.egl = list_egl_devices();
    for (const GpuDescription& gpu : cuda.gpus) {
        GpuListEntry entry{gpu, std::nullopt, std::nullopt, {}};
        for (const EglDeviceSummary& d : list.egl.devices)
            if (d.cuda_device == gpu.index && !entry.egl) entry.egl = d;
        if (!entry.egl) {
            entry.interop = false;
            entry.interop_why_not = list.egl.why_not.empty() ? "no EGL device drives it" : list.egl.why_not;
        } else if (probe_interop) {
            const auto why = interop_error(gpu.index, cuda.gpus);
            entry.interop = !why;
            entry.interop_why_not = why.value_or("");
        }
        list.gpus.push_back(entry);
    }
    return list;
}

std::string format_gpu_list(const GpuList& list) {
    std::string out;
    if (list.gpus.empty()) out += fmt::format("no CUDA GPU: {}\n", list.why_no_gpu);
    for (const GpuListEntry& e : list.gpus) {
        out += fmt::format("GPU {}: {}\n", e.gpu.index, describe_gpu(e.gpu));
        const std::string interop = !e.interop ? "not checked" : *e.interop ? "yes" : "no (" + e.interop_why_not + ")";
        out += fmt::format("  {}; interop: {}\n", e.egl ? egl_line(*e.egl) : "no EGL device", interop);
    }
    std::vector<const EglDeviceSummary*> others; // software devices, or a GPU CUDA does not see
    for (const EglDeviceSummary& d : list.egl.devices)
        if (std::none_of(list.gpus.begin(), list.gpus.end(),
                         [&](const GpuListEntry& e) { return e.egl && e.egl->index == d.index; }))
            others.push_back(&d);
    if (list.egl.devices.empty()) out += fmt::format("EGL devices: none ({})\n", list.egl.why_not);
    if (!others.empty()) out += "EGL devices that drive no CUDA GPU:\n";
    for (const EglDeviceSummary* d : others)
        out += "  " + egl_line(*d) + (d->cuda_device ? fmt::format(", CUDA device {}", *d->cuda_device) : "") + "\n";
    return out;
}

std::vector<std::string> device_gpu_lines(const std::vector<GpuDescription>& gpus, const std::vector<int>& gl_gpus,
                                          int cuda_device, std::string_view gl_renderer) {
    std::vector<std::string> lines;
    if (gpus.empty()) lines.push_back("GPUs: no CUDA GPU");
    for (const GpuDescription& g : gpus) {
        const bool gl = std::find(gl_gpus.begin(), gl_gpus.end(), g.index) != gl_gpus.end();
        const bool cuda = g.index == cuda_device;
        const std::string roles = gl && cuda ? "runs OpenGL; CUDA paints here"
                                  : gl       ? "runs OpenGL"
                                  : cuda     ? "CUDA paints here"
                                             : "idle";
        lines.push_back(fmt::format("GPU {}: {}, {} - {}", g.index, g.name, memory_text(g.memory), roles));
    }
    if (gl_gpus.empty()) lines.push_back(fmt::format("OpenGL runs on {}, no CUDA GPU", gl_renderer));
    return lines;
}

int print_gpu_list() {
    std::fputs(format_gpu_list(list_gpus()).c_str(), stdout);
    return 0;
}

} // namespace kc
