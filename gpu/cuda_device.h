#pragma once
// The CUDA device: whether there is one, and its limits and figures for the device panel.
#include <optional>
#include <string>

#include <vector>

#include "gpu/gpu_select.h"
#include "gpu/launch_config.h"

namespace kc {

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    int sm_count = 0;
    int cc_major = 0, cc_minor = 0;
    DeviceLimits limits;
    int warp_size = 32;
    int max_threads_per_sm = 0;
    std::size_t shared_mem_per_block = 0;
    std::size_t shared_mem_per_sm = 0;
    int memory_clock_khz = 0;
    int memory_bus_bits = 0;
    double peak_bandwidth_gbs() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8) / 1e9; }
};

// The start of cuda_unavailable_reason() when there is no GPU or no driver (the panel says it once).
inline constexpr const char* kNoNvidiaGpu = "no NVIDIA GPU or driver found";
// Why CUDA cannot be used here, in plain words (no GPU or driver, a driver too old, ...), or
// nullopt when a device is present.
std::optional<std::string> cuda_unavailable_reason();
// Properties of a device; throws CudaError when it cannot be queried.
DeviceInfo query_device(int ordinal);
// Every CUDA device (name, memory, UUID, PCI bus id), in CUDA's order; empty without one.
std::vector<GpuDescription> cuda_gpus();

} // namespace kc
