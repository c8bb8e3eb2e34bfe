#pragma once
// What every operation struct declares besides name/title/formula/bytes_read_per_pixel:
//   PerPixelOp: a __host__ __device__ operator()(x, y, params) -> Pixel. One thread per pixel;
//               the CUDA kernel and the CPU grid emulator run it through paint_thread().
//   CustomOp:   a whole-image pass that needs shared memory, barriers or atomics. It declares
//                 static void cpu_paint(const OpParams&, Pixel* out, OpOutputs* outputs);
//                   -- a plain CPU implementation (the cpu backend's; no grid emulation)
//                 static void cuda_launch(const CudaCustomLaunch&);   -- in ops/<name>.cu
//                 static LaunchConfig own_launch(const OpParams&);
//                   -- the block, grid and mapping of the kernel that writes the canvas: the one
//                      place the kernels, the panel, the inspector and the report read it
//                 static constexpr const char* launch_note;  -- other launches, or ""
//               and, with outputs besides pixels (the histogram's bins), a read-back hook:
//                 static void cuda_read_back(const CudaCustomLaunch&, bool both_variants, CudaReadback&);
//                 static void take_read_back(const CudaReadback&, OpOutputs&);
//               and may have several kernels (variants), e.g. naive global memory vs tiled shared
//               (variants = 2, variant_names; matmul has a third, register-blocked: up to kMaxVariants).
//   UserCodeOp: the user's own kernel, compiled at run time with NVRTC (see user_kernel.h). The
//               panel's block and grid launch it, but the user's code maps threads to pixels, so
//               mapping, view and pixels per thread do not apply. CUDA backends only: the CPU
//               emulator cannot run CUDA code.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpu/kernel_check.h"
#include "gpu/launch_config.h"
#include "gpu/op_params.h"

namespace kc {

// Results that are not pixels, read by the panel, the headless report and the tests (host memory).
struct OpOutputs {
    // histogram: [0] luminance (BT.601), [1] R, [2] G, [3] B; 256 bins each
    std::array<std::array<std::uint32_t, 256>, 4> histogram{};
    bool has_histogram = false;
    int histogram_mismatches = -1; // CUDA, both variants run: bins where they differ (-1: not compared)
    // matmul (cpu backend only): C, row-major N x N
    std::vector<float> matmul_c;
    // user_kernel in checked mode: what the last read-back frame's views caught (count 0: none)
    KernelViolations violations;
    bool has_violations = false; // a checked frame has been read back
};

struct CudaCustomLaunch; // cuda_ops.h
struct CudaReadback;     // cuda_ops.h

// The block of the custom image kernels (box blur, sobel, the matmul heatmap): 16x16, one thread
// per output pixel. Their tiled variants size shared memory by it.
constexpr int kTile = 16;

// Their launch: 16x16 blocks, the 2d mapping, a grid rounded up to cover the canvas.
inline LaunchConfig tile_launch() {
    return LaunchConfig{.block = {kTile, kTile, 1}, .auto_grid = true, .mapping = Mapping::TwoD};
}

// The tiled stencils' launch (box blur at r = 2, Sobel): the same 16x16 threads, but each thread
// computes 4 neighbouring outputs in x, so a block covers 64x16 pixels. Four outputs share most of
// their window, so a thread reads each staged column once for all four, and stores one 16-byte word.
inline LaunchConfig quad_tile_launch() {
    return LaunchConfig{
        .block = {kTile, kTile, 1}, .auto_grid = true, .mapping = Mapping::TwoD, .pixels_per_thread = 4};
}
constexpr int kQuadTileW = 4 * kTile;

// The tiled box blur's launch at r = 2: the same 64x16 pixels a block, by 16x8 threads that each
// compute 4 outputs in x on 2 rows: the second row's column sums are the first's, less the row
// above and plus the row below, so a thread reads 6 staged rows for 8 outputs instead of 5 for 4.
inline LaunchConfig two_row_quad_tile_launch() {
    return LaunchConfig{.block = {kTile, kTile / 2, 1},
                        .auto_grid = true,
                        .mapping = Mapping::TwoD,
                        .pixels_per_thread = 4,
                        .rows_per_thread = 2};
}

// Which input images an operation reads (`inputs`). The parameters it reads are `params`: names
// from the parameter table (param_limits.h), space-separated; a name not in the table fails the
// build. Two-variant ops read "variant" without naming it.
enum InputUse : unsigned {
    kUsesImageA = 1u << 0,
    kUsesImageB = 1u << 1,
};

// The most kernels (variants) one op offers: naive, tiled and matmul's register-blocked.
constexpr int kMaxVariants = 3;
using VariantNames = std::array<std::string_view, kMaxVariants>;

struct PerPixelOp {
    static constexpr const char* params = "";
    static constexpr bool custom = false;
    static constexpr bool user_code = false;
    static constexpr int variants = 1;
    static constexpr VariantNames variant_names{};
    static constexpr bool makes_histogram = false;
    static double flops(const OpParams&) { return 0.0; }
};

struct CustomOp {
    static constexpr const char* params = "";
    static constexpr bool custom = true;
    static LaunchConfig own_launch(const OpParams&) { return tile_launch(); }
    static constexpr const char* launch_note = "";
    static constexpr bool user_code = false;
    static constexpr int variants = 2;
    static constexpr VariantNames variant_names{"naive (global memory)", "tiled (shared memory)"};
    static constexpr bool makes_histogram = false;
    static double flops(const OpParams&) { return 0.0; }
};

struct UserCodeOp {
    static constexpr const char* params = "";
    static constexpr bool custom = false;
    static constexpr bool user_code = true;
    static constexpr int variants = 1;
    static constexpr VariantNames variant_names{};
    static constexpr bool makes_histogram = false;
    static double flops(const OpParams&) { return 0.0; }
};

} // namespace kc
