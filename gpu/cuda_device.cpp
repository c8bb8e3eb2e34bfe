#include "cuda_device.h"

#include <cuda_runtime_api.h>

#include "cuda_check.h"

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
