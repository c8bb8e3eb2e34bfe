#pragma once
// The CUDA backend's launch functions: plain C++ declarations, kernels live in cuda_paint.cu.
#include <cuda_runtime_api.h>
#include <surface_types.h>

#include <optional>
#include <string>

#include "gpu/cuda_device.h"
#include "gpu/cuda_ops.h"
#include "gpu/launch_figures.h"
#include "gpu/ops/op_base.h"
#include "gpu/paint_job.h"

namespace kc {

// Launches `job` on `stream`, writing width*height pixels at `out` (device memory). A launch the
// device cannot run is refused before anything is touched and its reason returned; launch errors
// the checks could not foresee throw CudaError. `record` (device memory) optionally keeps
// per-pixel writer figures; its `writes` counters must start at zero; its `blocks` (one per block
// of the grid, zeroed) the SM timeline, recorded by the per-pixel ops' kernels (custom ops and the
// user's kernel record none). The start view records one here when `record` has none.
// Custom operations (see ops/op_base.h) keep device buffers in `ws` between frames.
std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out, cudaStream_t stream,
                                      CudaOpWorkspace& ws, PixelRecord record = {});
// The same with the launch resolved and checked already (resolve_launch, no refusal; for
// user_kernel, a kernel loaded in `ws` that takes the block): launches without checking again.
void cuda_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, cudaStream_t stream,
                CudaOpWorkspace& ws, PixelRecord record = {});
// The same launch writing the mapped GL texture itself through `surface` (RGBA8, the canvas'
// size) instead of a linear buffer: only for jobs direct_write_refusal() allows (a per-pixel op,
// pixels view, no writer record, no step mode, every pixel covered); others throw logic_error.
void cuda_paint_surface(const PaintJob& job, const ResolvedLaunch& resolved, cudaSurfaceObject_t surface,
                        cudaStream_t stream);
// The same with a workspace for this call only (per-pixel ops need none; custom ops allocate).
std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out, cudaStream_t stream,
                                      PixelRecord record = {});

// Before cuda_paint, outside the kernel's time: the canvas hatched where the launch leaves pixels
// unwritten (resolved.clear_first), and the user's kernel's violation word and writer record
// cleared. The kernel time is then the kernel's alone, in every mode.
void cuda_prepare_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, PixelRecord record,
                        cudaStream_t stream, CudaOpWorkspace& ws);

// After cuda_paint (outside its time): the user's kernel's record shown as its views and marks
// (gpu/user_kernel_cuda.h) where `record` holds one; nothing for other ops.
void cuda_finish_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, PixelRecord record,
                       cudaStream_t stream, CudaOpWorkspace& ws);

// Queues job.op's read-back hook (its outputs besides pixels) on `stream` after its kernels, then
// records rb.ready; nothing for an op without one. `both_variants`: both kernels ran this frame.
void cuda_read_back(const PaintJob& job, bool both_variants, cudaStream_t stream, CudaOpWorkspace& ws,
                    CudaReadback& rb);
// Whether an op has a read-back hook.
bool cuda_has_read_back(int op);
// Once rb.ready has passed: the op's outputs into `out` (rb.pending cleared).
void cuda_take_read_back(CudaReadback& rb, OpOutputs& out);

// The start view's block times in `ws` (zeroed on `stream`) for a launch whose caller keeps no
// timeline; null for other views, custom ops and the user's kernel.
BlockTime* cuda_start_view_times(const PaintJob& job, const ResolvedLaunch& resolved, cudaStream_t stream,
                                 CudaOpWorkspace& ws);
// %globaltimer's smallest step on the current device, in ns (the SM timeline's resolution: about
// 1000 on some GPUs, finer on others); waits for `stream`. Called once, when the timeline starts.
double cuda_globaltimer_step_ns(cudaStream_t stream);

// Hatches width*height pixels with uncovered_pixel(x, y).
void cuda_fill_uncovered(Pixel* out, int width, int height, cudaStream_t stream);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for the paint kernel of operation `op` on the
// current device: how many blocks of this size one SM holds at once.
int cuda_max_active_blocks_per_sm(int op, int threads_per_block);
// The occupancy figures of the device panel for this launch of operation `op` on device `info`.
OccupancyFigures cuda_occupancy(const DeviceInfo& info, int op, const Dim3& block, const Dim3& grid);

// Writes width*height canvas pixels into an RGBA8 surface (a mapped GL texture), one texel per thread.
void cuda_copy_to_surface(const Pixel* pixels, int width, int height, cudaSurfaceObject_t surface, cudaStream_t stream);

// Fills `count` pixels with `value`.
void cuda_fill(Pixel* out, std::size_t count, Pixel value, cudaStream_t stream);

} // namespace kc
