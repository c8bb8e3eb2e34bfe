#pragma once
// Choosing the GPU: --gpu's matching (an index, or a name or UUID prefix) and the pairing of the
// chosen CUDA device with the GPU an OpenGL context runs on. Pure functions over descriptions, so
// machines with any number of GPUs are tested without them; the queries live in cuda_device.h
// (the CUDA devices) and render/ (the GL side).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

// One CUDA device as the list shows it and --gpu matches it.
struct GpuDescription {
    int index = 0;          // the CUDA device ordinal
    std::string name;       // "NVIDIA H200"
    std::size_t memory = 0; // bytes
    std::string uuid;       // "GPU-8f3a2b1c-...", as nvidia-smi prints it
    std::string pci_bus_id; // "0000:19:00.0"
};

// "139.7 GiB" (binary units; MiB below one GiB).
std::string memory_text(std::size_t bytes);
// "NVIDIA H200, 139.7 GiB, GPU-8f3a..., PCI 0000:19:00.0" (no index).
std::string describe_gpu(const GpuDescription& gpu);
// One line per GPU, each "  GPU N: ..." (describe_gpu), joined by newlines (none at the end).
std::string gpu_lines(const std::vector<GpuDescription>& gpus);

// --gpu's answer: the CUDA device, or a refusal that names the GPUs there are.
struct GpuChoice {
    std::optional<int> index;
    std::string error; // empty when index is set
};
// `spec` is a CUDA device index (all digits), or a case-insensitive prefix of a GPU's name or of
// its UUID (with or without "GPU-"); it must match exactly one GPU. `no_gpu_reason` says why the
// list is empty (no driver, no device, a build without CUDA).
GpuChoice choose_gpu(std::string_view spec, const std::vector<GpuDescription>& gpus,
                     std::string_view no_gpu_reason = "no CUDA device found");

// The CUDA devices an OpenGL context runs on (cudaGLGetDevices), or why CUDA cannot tell.
struct GlGpus {
    std::vector<int> devices; // empty: CUDA cannot use this context (why_not says why)
    std::string why_not;
};

// Where CUDA paints, and whether interop (CUDA writing GL's buffers) can work there.
struct GpuPairing {
    int cuda_device = 0;
    bool interop = false; // false: CUDA still paints (cuda-staged copies through host memory)
    std::string interop_why_not;
};
// Without a choice CUDA takes the GPU the context runs on (the first cudaGLGetDevices reports),
// or device 0 when CUDA cannot use the context. A chosen GPU is kept; interop works only when the
// context runs on it. `gpus` names the devices in the reason.
GpuPairing pair_cuda_with_gl(std::optional<int> chosen, const GlGpus& gl, const std::vector<GpuDescription>& gpus);

} // namespace kc
