#pragma once
// The device panel's figures behind a plain C++ call that also compiles without CUDA.
#include <optional>

#include "gpu/cuda_device.h"
#include "gpu/launch_figures.h"

namespace kc {

// Occupancy of operation `op`'s paint kernel with this block and grid on `device`, from
// cudaOccupancyMaxActiveBlocksPerMultiprocessor; nullopt without a device (or a CUDA build).
// Remembers the last answer, so calling it every frame costs nothing.
std::optional<OccupancyFigures> device_occupancy(const DeviceInfo* device, int op, const Dim3& block, const Dim3& grid);

} // namespace kc
