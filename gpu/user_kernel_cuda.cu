#include "gpu/user_kernel_cuda.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "gpu/cuda_check.h"
#include "gpu/cuda_paint.h"
#include "gpu/ops/sources.h"
#include "gpu/ops/user_kernel.h"

namespace kc {

namespace {

// Blocks whose SM the record keeps: more (a grid far larger than the canvas) show SM 0.
constexpr unsigned long long kMaxRecordedBlocks = 1ULL << 24;

// The inputs every op falls back to without images: A the gradient, B the checkerboard.
__global__ void fallback_sources_kernel(OpParams params, Pixel* a, Pixel* b) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= params.width || y >= params.height) return;
    const long long i = 1LL * y * params.width + x;
    a[i] = source_a(x, y, params);
    b[i] = source_b(x, y, params);
}

// The user's kernel gets real images for a and b: the loaded ones, or the fallbacks painted once
// per size and cell.
OpParams with_sources(const OpParams& job_params, cudaStream_t stream, CudaOpWorkspace& ws) {
    OpParams p = job_params;
    if (p.src_a && p.src_b) return p;
    const std::size_t pixels = std::size_t(p.width) * p.height;
    if (ws.fallback_a.size() != pixels || ws.fallback_width != p.width || ws.fallback_cell != p.cell) {
        ws.fallback_a = DeviceBuffer<Pixel>(pixels);
        ws.fallback_b = DeviceBuffer<Pixel>(pixels);
        OpParams generated = p;
        generated.src_a = generated.src_b = nullptr;
        const dim3 b(32, 8);
        fallback_sources_kernel<<<dim3((p.width + 31) / 32, (p.height + 7) / 8), b, 0, stream>>>(
            generated, ws.fallback_a.data(), ws.fallback_b.data());
        KC_CUDA_CHECK_THROW(cudaGetLastError());
        ws.fallback_width = p.width, ws.fallback_height = p.height, ws.fallback_cell = p.cell;
    }
    if (!p.src_a) p.src_a = ws.fallback_a.data();
    if (!p.src_b) p.src_b = ws.fallback_b.data();
    return p;
}

__global__ void show_writers_kernel(View view, const unsigned* words, Pixel* out, int width, int height, Dim3 block,
                                    Dim3 grid, const unsigned* block_sm, unsigned long long blocks, WriterMarks marks) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const long long i = 1LL * y * width + x;
    const Pixel shown = view == View::Pixels ? out[i] : Pixel{};
    out[i] = recorded_pixel(view, words, width, height, x, y, shown, block, grid, block_sm, blocks, marks);
}

bool checked(const CudaOpWorkspace& ws) { return ws.user_kernel && ws.user_kernel->mode() == KernelMode::Checked; }

} // namespace

bool user_kernel_records(const PaintJob& job, const CudaOpWorkspace& ws, bool inspector) {
    return checked(ws) && (inspector || job.view != View::Pixels || job.marks.repeats || job.marks.block_edges);
}

bool user_kernel_needs_colour_pass(const PaintJob&, const CudaOpWorkspace& ws) { return checked(ws); }

void prepare_user_kernel(const PaintJob& job, PixelRecord record, cudaStream_t stream, CudaOpWorkspace& ws) {
    if (!checked(ws)) return;
    if (ws.violation.size() != 1) ws.violation = DeviceBuffer<KcViolation>(1);
    KC_CUDA_CHECK_THROW(cudaMemsetAsync(ws.violation.data(), 0, sizeof(KcViolation), stream));
    if (record.sm) {
        const std::size_t pixels = std::size_t(job.params.width) * job.params.height;
        KC_CUDA_CHECK_THROW(cudaMemsetAsync(record.sm, 0, pixels * sizeof(unsigned), stream));
    }
}

void launch_user_kernel(const PaintJob& job, dim3 grid, dim3 block, Pixel* out, PixelRecord record, cudaStream_t stream,
                        CudaOpWorkspace& ws) {
    if (!ws.user_kernel)
        throw std::logic_error("user_kernel launched with no kernel loaded"); // the painter refuses first
    if (checked(ws) && ws.violation.size() != 1)
        throw std::logic_error("user_kernel launched in checked mode before prepare_user_kernel");
    OpParams prepared = job.params;
    prepare_divisors(prepared); // the fallback images divide by the canvas' size
    const OpParams p = with_sources(prepared, stream, ws);
    KcCheck check{};
    check.max_blocks = -1;
    const bool is_checked = checked(ws);
    if (is_checked) {
        check.violation = ws.violation.data();
        check.max_blocks = job.max_blocks;
    }
    const bool recording = is_checked && record.sm;
    if (recording) {
        const unsigned long long blocks =
            std::min<unsigned long long>(1ULL * grid.x * grid.y * grid.z, kMaxRecordedBlocks);
        if (ws.block_sm.size() < blocks) ws.block_sm = DeviceBuffer<unsigned>(blocks);
        check.record = KcRecord{record.sm, ws.block_sm.data(), blocks};
        ws.recorded_block_threads = 1ULL * block.x * block.y * block.z;
        check.identity = job.view != View::Pixels; // the colour pass paints every pixel from the record
    }
    ws.user_kernel->launch(Dim3{int(grid.x), int(grid.y), int(grid.z)}, Dim3{int(block.x), int(block.y), int(block.z)},
                           out, p.width, p.height, p.src_a, p.src_b, p.seconds, check, stream);
}

void show_user_kernel_writers(const PaintJob& job, const Dim3& grid, const unsigned* words, Pixel* out,
                              cudaStream_t stream, CudaOpWorkspace& ws) {
    const int w = job.params.width, h = job.params.height;
    const unsigned long long blocks = std::min<unsigned long long>(grid.count(), kMaxRecordedBlocks);
    const dim3 b(32, 8);
    show_writers_kernel<<<dim3((w + 31) / 32, (h + 7) / 8), b, 0, stream>>>(
        job.view, words, out, w, h, job.launch.block, grid, ws.block_sm.data(), blocks, job.marks);
    KC_CUDA_CHECK_THROW(cudaGetLastError());
}

void UserKernelOp::cuda_read_back(const CudaCustomLaunch& l, bool, CudaReadback& rb) {
    if (!checked(l.ws) || l.ws.violation.size() != 1) return;
    constexpr std::size_t words = (sizeof(KcViolation) + 3) / 4;
    if (rb.words.size() != words) rb.words = PinnedBuffer<std::uint32_t>(words);
    KC_CUDA_CHECK_THROW(
        cudaMemcpyAsync(rb.words.data(), l.ws.violation.data(), sizeof(KcViolation), cudaMemcpyDeviceToHost, l.stream));
}

void UserKernelOp::take_read_back(const CudaReadback& rb, OpOutputs& out) {
    if (rb.words.size() * 4 < sizeof(KcViolation)) return;
    out.has_violations = true;
    std::memcpy(&out.violations.first, rb.words.data(), sizeof(KcViolation));
    out.violations.count = out.violations.first.count;
    out.violations.width = out.violations.first.width, out.violations.height = out.violations.first.height;
}

} // namespace kc
