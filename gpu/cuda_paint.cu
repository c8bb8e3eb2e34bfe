#include "gpu/cuda_paint.h"

#include <array>
#include <stdexcept>

#include "gpu/cuda_check.h"
#include "gpu/ops/op_list.h"
#include "gpu/ops/sources.h"
#include "gpu/registry.h"
#include "gpu/user_kernel_cuda.h"

namespace kc {

namespace {

__device__ __forceinline__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

__device__ __forceinline__ unsigned long long global_timer() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// The teaching kernel: views, writer records, step mode, and the SM timeline. With record.blocks
// (the same for every block: a uniform branch) thread 0 of each block (by its linear thread id)
// reads the clock at entry and, after a barrier that every thread reaches once its pixels are
// written, again at the end; the plain kernel below never carries this.
template <class Op>
__global__ void paint_kernel(OpParams params, Mapping mapping, int pixels_per_thread, View view, Pixel* out,
                             PixelRecord record, long long max_blocks) {
    const ThreadCoords t{blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z,
                         blockDim.x, blockDim.y, blockDim.z, gridDim.x,   gridDim.y,   gridDim.z};
    if (max_blocks >= 0 && block_in_launch(t) >= static_cast<unsigned long long>(max_blocks)) return; // step mode
    const bool timed = record.blocks != nullptr;
    const bool first_thread = thread_in_block(t) == 0;
    const unsigned long long start = timed && first_thread ? global_timer() : 0ULL;
    const bool need_sm = view == View::Sm || record.sm != nullptr || timed;
    const unsigned sm = need_sm ? sm_id() : 0u;
    paint_thread(Op{}, params, t, mapping, pixels_per_thread, view, sm, LinearSink{out}, record);
    if (!timed) return;
    __syncthreads();
    if (first_thread) record.blocks[block_in_launch(t)] = BlockTime{start, global_timer(), sm, 1u};
}

// %globaltimer's smallest step: one thread reads it back to back and keeps the smallest change.
__global__ void globaltimer_step_kernel(unsigned long long* smallest_ns) {
    unsigned long long smallest = ~0ULL, before = global_timer();
    for (int i = 0; i < 20000; ++i) {
        const unsigned long long now = global_timer();
        if (now != before) smallest = min(smallest, now - before), before = now;
    }
    *smallest_ns = smallest;
}

// The start view's pass, after the kernel: the earliest and latest start of the blocks that ran
// (one block), then each pixel's block number into the colour of its block's start.
__global__ void start_span_kernel(const BlockTime* blocks, unsigned long long count, unsigned long long* span) {
    __shared__ unsigned long long first, last;
    if (threadIdx.x == 0) first = ~0ULL, last = 0;
    __syncthreads();
    unsigned long long lo = ~0ULL, hi = 0;
    for (unsigned long long n = threadIdx.x; n < count; n += blockDim.x)
        if (blocks[n].ran) lo = min(lo, blocks[n].start), hi = max(hi, blocks[n].start);
    atomicMin(&first, lo);
    atomicMax(&last, hi);
    __syncthreads();
    if (threadIdx.x == 0) span[0] = first, span[1] = last;
}

__global__ void start_colour_kernel(Pixel* out, int width, long long pixels, const BlockTime* blocks,
                                    unsigned long long count, const unsigned long long* span) {
    for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < pixels; i += 1LL * blockDim.x * gridDim.x)
        out[i] = start_view_pixel(out[i], blocks, count, span[0], span[1], static_cast<int>(i % width),
                                  static_cast<int>(i / width));
}

// The mapped GL texture as paint_thread's sink: RGBA8 texels through a surface object (x in
// bytes), so the op's kernel writes what is shown and no copy follows (Present::Direct). GL's RGBA8
// storage holds R,G,B,A bytes where a canvas pixel holds B,G,R,A: red and blue swap on the way.
struct SurfaceSink {
    cudaSurfaceObject_t surface;
    KC_HD static unsigned rgba(Pixel p) {
        return unsigned(p.r) | unsigned(p.g) << 8 | unsigned(p.b) << 16 | unsigned(p.a) << 24;
    }
    KC_HD void put(unsigned x, unsigned y, unsigned long long, Pixel v) const {
#if defined(__CUDA_ARCH__)
        surf2Dwrite(rgba(v), surface, static_cast<int>(x * 4), static_cast<int>(y));
#else
        (void)x, (void)y, (void)v; // device code only; the emulator writes memory
#endif
    }
    // A texel row needs no alignment of its own: four texels from a multiple of 4 go in one store.
    KC_HD bool puts_quads(unsigned) const { return true; }
    KC_HD void put_quad(unsigned x0, unsigned y, unsigned, Pixel a, Pixel b, Pixel c, Pixel d) const {
#if defined(__CUDA_ARCH__)
        surf2Dwrite(make_uint4(rgba(a), rgba(b), rgba(c), rgba(d)), surface, static_cast<int>(x0 * 4),
                    static_cast<int>(y));
#else
        (void)x0, (void)y, (void)a, (void)b, (void)c, (void)d;
#endif
    }
};

// The same launch without views, writer records or step mode: what runs when nobody inspects.
// One kernel per path (paint_path()), so that a one-pixel thread is not given the registers of
// the four-pixel one: those cost the SM the resident warps whose loads hide memory latency.
// `out` is a LinearSink (the linear buffer) or a SurfaceSink (the texture).
template <class Op, PaintPath kPath, class Sink>
__global__ void paint_pixels_kernel(OpParams params, Mapping mapping, int pixels_per_thread, Sink out) {
    const ThreadCoords t{blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z,
                         blockDim.x, blockDim.y, blockDim.z, gridDim.x,   gridDim.y,   gridDim.z};
    paint_thread<Op, true, kPath>(Op{}, params, t, mapping, pixels_per_thread, View::Pixels, 0u, out);
}

template <class Op, class Sink>
void launch_pixels(const PaintJob& job, dim3 grid, dim3 block, Sink out, cudaStream_t stream) {
    const Mapping m = job.launch.mapping;
    const int ppt = job.launch.pixels_per_thread;
    switch (paint_path(m, ppt)) {
    case PaintPath::Quad:
        paint_pixels_kernel<Op, PaintPath::Quad><<<grid, block, 0, stream>>>(job.params, m, ppt, out);
        break;
    case PaintPath::Tiled:
        paint_pixels_kernel<Op, PaintPath::Tiled><<<grid, block, 0, stream>>>(job.params, m, ppt, out);
        break;
    default:
        paint_pixels_kernel<Op, PaintPath::Linear><<<grid, block, 0, stream>>>(job.params, m, ppt, out);
        break;
    }
}

__global__ void hatch_kernel(Pixel* out, int width, long long count) {
    for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += 1LL * blockDim.x * gridDim.x)
        out[i] = uncovered_pixel(static_cast<int>(i % width), static_cast<int>(i / width));
}

__global__ void fill_kernel(Pixel* out, std::size_t count, Pixel value) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += 1ULL * blockDim.x * gridDim.x)
        out[i] = value;
}

__global__ void copy_to_surface_kernel(const Pixel* __restrict__ pixels, int width, int height,
                                       cudaSurfaceObject_t surface) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    SurfaceSink{surface}.put(unsigned(x), unsigned(y), 0, pixels[y * width + x]); // the direct path's swizzle
}

using Launcher = void (*)(const PaintJob&, dim3, dim3, Pixel*, PixelRecord, cudaStream_t, CudaOpWorkspace&);

template <class Op>
void launch(const PaintJob& job, dim3 grid, dim3 block, Pixel* out, PixelRecord record, cudaStream_t stream,
            CudaOpWorkspace& ws) {
    if constexpr (Op::custom) {
        (void)record;
        Op::cuda_launch(CudaCustomLaunch{job, out, stream, ws});
    } else if constexpr (Op::user_code) {
        (void)job, (void)grid, (void)block, (void)out, (void)record, (void)stream, (void)ws;
        throw std::logic_error("the user's kernel launches through launch_user_kernel");
    } else {
        (void)ws;
        if (job.view == View::Pixels && !record.sm && !record.writes && !record.blocks && job.max_blocks < 0)
            launch_pixels<Op>(job, grid, block, LinearSink{out}, stream);
        else
            paint_kernel<Op><<<grid, block, 0, stream>>>(job.params, job.launch.mapping, job.launch.pixels_per_thread,
                                                         job.view, out, record, job.max_blocks);
    }
}

constexpr std::array kLaunchers{
#define KC_OP(Functor) static_cast<Launcher>(&launch<Functor>),
#include "gpu/ops/op_list.h"
#undef KC_OP
};

using SurfaceLauncher = void (*)(const PaintJob&, dim3, dim3, cudaSurfaceObject_t, cudaStream_t);

// The plain-pixels launch into the texture; only per-pixel ops get here (direct_write_refusal()).
template <class Op>
void launch_to_surface(const PaintJob& job, dim3 grid, dim3 block, cudaSurfaceObject_t surface, cudaStream_t stream) {
    if constexpr (Op::custom || Op::user_code) {
        (void)job, (void)grid, (void)block, (void)surface, (void)stream;
        throw std::logic_error("a custom op or the user's kernel cannot write the texture directly");
    } else {
        launch_pixels<Op>(job, grid, block, SurfaceSink{surface}, stream);
    }
}

constexpr std::array kSurfaceLaunchers{
#define KC_OP(Functor) static_cast<SurfaceLauncher>(&launch_to_surface<Functor>),
#include "gpu/ops/op_list.h"
#undef KC_OP
};

// Each op's read-back hook, or null: the op declares it (Op::cuda_read_back, Op::take_read_back).
struct ReadBackHook {
    void (*queue)(const CudaCustomLaunch&, bool, CudaReadback&) = nullptr;
    void (*take)(const CudaReadback&, OpOutputs&) = nullptr;
};

template <class Op>
constexpr ReadBackHook read_back_hook() {
    if constexpr (requires { &Op::cuda_read_back; })
        return {&Op::cuda_read_back, &Op::take_read_back};
    else
        return {};
}

constexpr std::array kReadBacks{
#define KC_OP(Functor) read_back_hook<Functor>(),
#include "gpu/ops/op_list.h"
#undef KC_OP
};

using OccupancyQuery = int (*)(int);

template <class Op>
int max_active_blocks(int threads_per_block) {
    if constexpr (Op::custom || Op::user_code) {
        (void)threads_per_block;
        return 0; // custom ops launch their own kernels with fixed blocks; user code is not compiled here
    } else {
        int blocks = 0;
        KC_CUDA_CHECK_THROW(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, paint_kernel<Op>, threads_per_block, 0));
        return blocks;
    }
}

constexpr std::array kOccupancyQueries{
#define KC_OP(Functor) static_cast<OccupancyQuery>(&max_active_blocks<Functor>),
#include "gpu/ops/op_list.h"
#undef KC_OP
};

} // namespace

bool cuda_has_read_back(int op) { return kReadBacks.at(static_cast<std::size_t>(op)).queue != nullptr; }

void cuda_read_back(const PaintJob& job, bool both_variants, cudaStream_t stream, CudaOpWorkspace& ws,
                    CudaReadback& rb) {
    const ReadBackHook& hook = kReadBacks.at(static_cast<std::size_t>(job.op));
    if (!hook.queue) return;
    hook.queue(CudaCustomLaunch{job, nullptr, stream, ws}, both_variants, rb);
    KC_CUDA_CHECK_THROW(cudaEventRecord(rb.ready.get(), stream));
    rb.pending = true, rb.op = job.op, rb.variant = job.params.variant, rb.both = both_variants;
}

void cuda_take_read_back(CudaReadback& rb, OpOutputs& out) {
    rb.pending = false;
    if (rb.op >= 0 && kReadBacks.at(static_cast<std::size_t>(rb.op)).take)
        kReadBacks[static_cast<std::size_t>(rb.op)].take(rb, out);
}

void cuda_copy_to_surface(const Pixel* pixels, int width, int height, cudaSurfaceObject_t surface,
                          cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    copy_to_surface_kernel<<<grid, block, 0, stream>>>(pixels, width, height, surface);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
}

void cuda_fill(Pixel* out, std::size_t count, Pixel value, cudaStream_t stream) {
    fill_kernel<<<1024, 256, 0, stream>>>(out, count, value);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
}

void cuda_fill_uncovered(Pixel* out, int width, int height, cudaStream_t stream) {
    hatch_kernel<<<1024, 256, 0, stream>>>(out, width, 1LL * width * height);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
}

BlockTime* cuda_start_view_times(const PaintJob& job, const ResolvedLaunch& resolved, cudaStream_t stream,
                                 CudaOpWorkspace& ws) {
    const OpInfo& op = op_registry()[job.op];
    if (job.view != View::Start || op.custom || op.user_code) return nullptr;
    const auto count = static_cast<std::size_t>(resolved.grid.count());
    if (ws.start_times.size() < count) ws.start_times = DeviceBuffer<BlockTime>(count);
    KC_CUDA_CHECK_THROW(cudaMemsetAsync(ws.start_times.data(), 0, count * sizeof(BlockTime), stream));
    return ws.start_times.data();
}

double cuda_globaltimer_step_ns(cudaStream_t stream) {
    DeviceBuffer<unsigned long long> smallest(1);
    globaltimer_step_kernel<<<1, 1, 0, stream>>>(smallest.data());
    KC_CUDA_CHECK_THROW(cudaGetLastError());
    unsigned long long ns = 0;
    KC_CUDA_CHECK_THROW(cudaMemcpyAsync(&ns, smallest.data(), sizeof ns, cudaMemcpyDeviceToHost, stream));
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
    return ns == ~0ULL ? 0.0 : double(ns);
}

int cuda_max_active_blocks_per_sm(int op, int threads_per_block) {
    return kOccupancyQueries.at(static_cast<std::size_t>(op))(threads_per_block);
}

OccupancyFigures cuda_occupancy(const DeviceInfo& info, int op, const Dim3& block, const Dim3& grid) {
    const int per_sm = cuda_max_active_blocks_per_sm(op, static_cast<int>(block.count()));
    return occupancy_figures(block, grid, per_sm, info.sm_count, info.max_threads_per_sm, info.warp_size);
}

std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out, cudaStream_t stream,
                                      CudaOpWorkspace& ws, PixelRecord record) {
    const ResolvedLaunch resolved = resolve_launch(job, limits);
    if (resolved.refusal) return resolved.refusal;
    if (op_registry()[job.op].user_code) {
        if (!ws.user_kernel) return std::string(kNoUserKernel);
        if (auto e = ws.user_kernel->launch_error(job.launch.block)) return e;
    }
    if (!record.blocks) record.blocks = cuda_start_view_times(job, resolved, stream, ws); // the view needs them
    cuda_prepare_paint(job, resolved, out, record, stream, ws);
    cuda_paint(job, resolved, out, stream, ws, record);
    cuda_finish_paint(job, resolved, out, record, stream, ws);
    return std::nullopt;
}

void cuda_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, cudaStream_t stream,
                CudaOpWorkspace& ws, PixelRecord record) {
    const Dim3 b = job.launch.block;
    const Dim3& g = resolved.grid;
    if (op_registry()[job.op].user_code) {
        launch_user_kernel(job, dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), out, record, stream, ws);
    } else {
        PaintJob prepared = job;
        prepare_divisors(prepared.params);
        kLaunchers[job.op](prepared, dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), out, record, stream, ws);
    }
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#endif
}

void cuda_paint_surface(const PaintJob& job, const ResolvedLaunch& resolved, cudaSurfaceObject_t surface,
                        cudaStream_t stream) {
    if (resolved.clear_first) throw std::logic_error("a launch that leaves pixels unwritten cannot write the texture");
    const Dim3 b = job.launch.block;
    const Dim3& g = resolved.grid;
    PaintJob prepared = job;
    prepare_divisors(prepared.params);
    kSurfaceLaunchers[job.op](prepared, dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), surface, stream);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#endif
}

std::optional<std::string> cuda_paint(const PaintJob& job, const DeviceLimits& limits, Pixel* out, cudaStream_t stream,
                                      PixelRecord record) {
    CudaOpWorkspace ws; // freed on return; cudaFree waits for the kernels that use it
    return cuda_paint(job, limits, out, stream, ws, record);
}

void cuda_prepare_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, PixelRecord record,
                        cudaStream_t stream, CudaOpWorkspace& ws) {
    const bool user_code = op_registry()[job.op].user_code;
    if (user_code) prepare_user_kernel(job, record, stream, ws);
    // A record marks unwritten pixels itself: the colour pass hatches them after the kernel.
    const bool records = user_code && record.sm && user_kernel_needs_colour_pass(job, ws);
    if (!resolved.clear_first || !out || records) return;
    if (job.view == View::Start && !user_code) // the start view's pass hatches block number 0
        cuda_fill(out, std::size_t(job.params.width) * std::size_t(job.params.height), Pixel{0, 0, 0, 0}, stream);
    else
        cuda_fill_uncovered(out, job.params.width, job.params.height, stream);
}

void cuda_finish_paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out, PixelRecord record,
                       cudaStream_t stream, CudaOpWorkspace& ws) {
    if (job.view == View::Start && record.blocks && out && !op_registry()[job.op].custom &&
        !op_registry()[job.op].user_code) {
        if (ws.start_span.size() < 2) ws.start_span = DeviceBuffer<unsigned long long>(2);
        const auto count = static_cast<unsigned long long>(resolved.grid.count());
        start_span_kernel<<<1, 256, 0, stream>>>(record.blocks, count, ws.start_span.data());
        start_colour_kernel<<<1024, 256, 0, stream>>>(out, job.params.width, 1LL * job.params.width * job.params.height,
                                                      record.blocks, count, ws.start_span.data());
        KC_CUDA_CHECK_THROW(cudaGetLastError());
        return;
    }
    if (!op_registry()[job.op].user_code || !record.sm || !out || !user_kernel_needs_colour_pass(job, ws)) return;
    show_user_kernel_writers(job, resolved.grid, record.sm, out, stream, ws);
}

} // namespace kc
