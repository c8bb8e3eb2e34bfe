#include "cuda_paint.h"

#include <array>

#include "cuda_check.h"
#include "ops/op_list.h"

namespace kc {

namespace {

__device__ __forceinline__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

template <class Op>
__global__ void paint_kernel(OpParams params, Mapping mapping, View view, Pixel* out) {
    const ThreadCoords t{blockIdx.x,  blockIdx.y,  blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z,
                         blockDim.x,  blockDim.y,  blockDim.z, gridDim.x,   gridDim.y,   gridDim.z};
    paint_thread(Op{}, params, t, mapping, view, view == View::Sm ? sm_id() : 0u, out);
}

__global__ void fill_kernel(Pixel* out, std::size_t count, Pixel value) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += 1ULL * blockDim.x * gridDim.x)
        out[i] = value;
}

using Launcher = void (*)(const PaintJob&, dim3, dim3, Pixel*, cudaStream_t, CudaOpWorkspace&);

template <class Op>
void launch(const PaintJob& job, dim3 grid, dim3 block, Pixel* out, cudaStream_t stream, CudaOpWorkspace& ws) {
    if constexpr (Op::custom) {
        Op::cuda_launch(CudaCustomLaunch{job, out, stream, ws});
    } else {
        (void)ws;
        paint_kernel<Op><<<grid, block, 0, stream>>>(job.params, job.launch.mapping, job.view, out);
    }
}

constexpr std::array kLaunchers{
#define KC_OP(Functor) static_cast<Launcher>(&launch<Functor>),
#include "ops/op_list.h"
#undef KC_OP
};

} // namespace

void cuda_fill(Pixel* out, std::size_t count, Pixel value, cudaStream_t stream) {
    fill_kernel<<<1024, 256, 0, stream>>>(out, count, value);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
}

std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out,
                                      cudaStream_t stream, CudaOpWorkspace& ws) {
    // Universal limits first: they give the same message whether or not a GPU is present.
    PaintPlan plan = plan_paint(job, universal_limits());
    if (!plan.error) plan = plan_paint(job, limits);
    if (plan.error) return plan.error;
    if (plan.clear_first) cuda_fill(out, 1ULL * job.params.width * job.params.height, kUncoveredPixel, stream);
    const Dim3 b = job.launch.block;
    kLaunchers[job.op](job, dim3(plan.grid.x, plan.grid.y, plan.grid.z), dim3(b.x, b.y, b.z), out, stream, ws);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#endif
    return std::nullopt;
}

std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out,
                                      cudaStream_t stream) {
    CudaOpWorkspace ws; // freed on return; cudaFree waits for the kernels that use it
    return cuda_paint(job, limits, out, stream, ws);
}

} // namespace kc
