#include "gpu/cuda_device.h"

#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include "gpu/cuda_check.h"

namespace kc {

std::optional<std::string> cuda_unavailable_reason() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count > 0) return std::nullopt;
    cudaGetLastError(); // the error is not sticky: clear it so later calls start clean
    if (e == cudaSuccess || e == cudaErrorNoDevice)
        return std::string(kNoNvidiaGpu) + " (the NVIDIA driver reports no CUDA device)";
    if (e == cudaErrorInsufficientDriver) {
        // The same error for a missing driver and an old one: the driver's version (0: none) tells them apart.
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        if (driver == 0)
            return std::string(kNoNvidiaGpu) + " (the CUDA runtime is here, but no NVIDIA driver is loaded)";
        return "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
               std::to_string(driver % 1000 / 10) + ", older than the CUDA " + std::to_string(runtime / 1000) + "." +
               std::to_string(runtime % 1000 / 10) + " this kcanvas was built with: update the driver to use the GPU";
    }
    return std::string("CUDA cannot start here: ") + cudaGetErrorString(e);
}

namespace {

// The UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_text(const cudaUUID_t& uuid) {
    std::string out = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += fmt::format("{:02x}", static_cast<unsigned char>(uuid.bytes[i]));
    }
    return out;
}

} // namespace

std::vector<GpuDescription> cuda_gpus() {
    std::vector<GpuDescription> gpus;
    if (cuda_unavailable_reason()) return gpus;
    int count = 0;
    KC_CUDA_CHECK_THROW(cudaGetDeviceCount(&count));
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp p{};
        KC_CUDA_CHECK_THROW(cudaGetDeviceProperties(&p, i));
        char bus[32] = {};
        KC_CUDA_CHECK_THROW(cudaDeviceGetPCIBusId(bus, sizeof bus, i));
        gpus.push_back({i, p.name, p.totalGlobalMem, uuid_text(p.uuid), bus});
    }
    return gpus;
}

DeviceInfo query_device(int ordinal) {
    cudaDeviceProp p{};
    KC_CUDA_CHECK_THROW(cudaGetDeviceProperties(&p, ordinal));
    DeviceInfo d;
    d.ordinal = ordinal;
    d.name = p.name;
    d.sm_count = p.multiProcessorCount;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.limits.max_threads_per_block = p.maxThreadsPerBlock;
    d.limits.max_block = {p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]};
    d.limits.max_grid_x = p.maxGridSize[0];
    d.limits.max_grid_y = p.maxGridSize[1];
    d.limits.max_grid_z = p.maxGridSize[2];
    d.warp_size = p.warpSize;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.shared_mem_per_block = p.sharedMemPerBlock;
    d.shared_mem_per_sm = p.sharedMemPerMultiprocessor;
    // cudaDeviceProp lost memoryClockRate in CUDA 13: ask the attribute API.
    KC_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    KC_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&d.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
    return d;
}

} // namespace kc
