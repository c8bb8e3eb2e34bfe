#pragma once
// The machine's GPUs for --list-gpus, --gpu, --version and the panel's Device section: each CUDA
// device, the EGL device that drives it, and whether CUDA-GL interop works between them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/gpu_select.h"
#include "render/gl_context.h"

namespace kc {

// The CUDA devices, queried once per process (they do not change while it runs).
struct CudaGpus {
    std::vector<GpuDescription> gpus;
    std::string why_none; // why the list is empty: no driver, no device, a build without CUDA
};
const CudaGpus& cuda_gpu_list();

// --gpu SPEC against this machine's GPUs (choose_gpu over cuda_gpu_list()).
GpuChoice resolve_gpu_option(std::string_view spec);

struct GpuListEntry {
    GpuDescription gpu;
    std::optional<EglDeviceSummary> egl; // the EGL device whose EGL_CUDA_DEVICE_NV is this GPU
    std::optional<bool> interop;         // nullopt: not probed
    std::string interop_why_not;
};
struct GpuList {
    std::vector<GpuListEntry> gpus;
    std::string why_no_gpu; // set when gpus is empty
    EglDeviceList egl;      // every EGL device, CUDA's or not
};
// With `probe_interop`, opens a headless EGL context on each GPU's EGL device and registers a GL
// buffer with CUDA there (a fraction of a second per GPU); without, interop stays nullopt. Call it
// while no headless context lives (see list_egl_devices).
GpuList list_gpus(bool probe_interop = true);
// The text --list-gpus prints (ends with a newline).
std::string format_gpu_list(const GpuList& list);
// The Device section's lines: each GPU with its memory, which one runs OpenGL (`gl_gpus`, from
// cudaGLGetDevices) and which one CUDA paints with (`cuda_device`, -1: none); `gl_renderer` names
// the GL device when it is no CUDA GPU (software GL, another vendor's GPU).
std::vector<std::string> device_gpu_lines(const std::vector<GpuDescription>& gpus, const std::vector<int>& gl_gpus,
                                          int cuda_device, std::string_view gl_renderer);

// kcanvas --list-gpus: prints the list; returns the exit code (0).
int print_gpu_list();

} // namespace kc
