#pragma once
#include "gpu/ops/op_base.h"

namespace kc {

// The user's own kernel, typed in the panel or given with --kernel FILE.cu and compiled at run
// time by NVRTC (../user_kernel.h): `paint(out, width, height, a, b, t)`, launched with the
// panel's block and grid. The painter holds the compiled kernel; without one it refuses.
struct UserKernelOp : UserCodeOp {
    static constexpr const char* name = "user_kernel";
    static constexpr const char* title = "Your kernel (NVRTC)";
    static constexpr const char* formula =
        "your CUDA code: paint(out, width, height, a, b, t), launched with the panel's block and grid; "
        "pixels no thread writes stay hatched";
    static constexpr unsigned inputs = kUsesImageA | kUsesImageB;
    static constexpr int bytes_read_per_pixel = 0; // unknown: bandwidth counts the writes only
    // Checked mode's out-of-range accesses on their way to the host (gpu/user_kernel_cuda.cu).
    static void cuda_read_back(const CudaCustomLaunch& l, bool both_variants, CudaReadback& rb);
    static void take_read_back(const CudaReadback& rb, OpOutputs& out);
};

} // namespace kc
