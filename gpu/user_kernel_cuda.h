#pragma once
// The user's kernel on the GPU (CUDA builds): its launch with checked mode's views, writer record
// and step mode, and the pass that turns the record into the views' colours and marks.
#include <cuda_runtime_api.h>

#include "gpu/cuda_ops.h"
#include "gpu/paint_job.h"
#include "gpu/thread_body.h"

namespace kc {

// Before launch_user_kernel, outside the kernel's time: in checked mode ws.violation zeroed (and
// allocated), and record.sm's width*height words zeroed when the launch records (unwritten = 0).
void prepare_user_kernel(const PaintJob& job, PixelRecord record, cudaStream_t stream, CudaOpWorkspace& ws);

// Launches the loaded kernel (ws.user_kernel) for `job`. In checked mode the launch's
// out-of-range accesses go to ws.violation (zeroed by prepare_user_kernel), step mode limits the blocks, and with
// record.sm (width*height words of device memory) it records who wrote each pixel there
// (KcRecord); in a view other than pixels it then writes the record only, not `out`. Raw mode
// runs the kernel as it is: no record, every block.
void launch_user_kernel(const PaintJob& job, dim3 grid, dim3 block, Pixel* out, PixelRecord record, cudaStream_t stream,
                        CudaOpWorkspace& ws);

// Whether launch_user_kernel keeps a record for `job` (checked mode, a view or marks or the
// inspector asked for one); a launch that keeps one needs the colour pass after it (it hatches the
// unwritten pixels), which cuda_finish_paint runs.
bool user_kernel_records(const PaintJob& job, const CudaOpWorkspace& ws, bool inspector);
bool user_kernel_needs_colour_pass(const PaintJob& job, const CudaOpWorkspace& ws);

// After launch_user_kernel recorded into `words`: the views' colours (a view other than pixels)
// and the marks into `out`, unwritten pixels hatched. Not part of the kernel's time.
void show_user_kernel_writers(const PaintJob& job, const Dim3& grid, const unsigned* words, Pixel* out,
                              cudaStream_t stream, CudaOpWorkspace& ws);

} // namespace kc
