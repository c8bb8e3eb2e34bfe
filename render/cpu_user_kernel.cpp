#include "render/cpu_user_kernel.h"

#include <algorithm>
#include <cstdlib>

#include "cpukernel/cpu_kernel.h"
#include "gpu/kernel_check.h"
#include "gpu/ops/sources.h"

namespace kc {

namespace {

// Blocks whose worker the record keeps (as on the GPU): more show worker 0.
constexpr unsigned long long kMaxRecordedBlocks = 1ULL << 24;

bool wants_record(const PaintJob& job, bool inspector) {
    return inspector || job.view != View::Pixels || job.marks.repeats || job.marks.block_edges;
}

bool needs_colour_pass(const PaintJob& job) {
    return job.view != View::Pixels || job.marks.repeats || job.marks.block_edges || job.marks.outline_x >= 0;
}

} // namespace

std::filesystem::path cpu_kernel_cache_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "kcanvas" / "cpu-kernels";
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        return std::filesystem::path(home) / ".cache" / "kcanvas" / "cpu-kernels";
    return std::filesystem::temp_directory_path() / "kcanvas-cpu-kernels";
}

CpuUserKernel::CpuUserKernel(std::filesystem::path cache_dir) : cache_dir_(std::move(cache_dir)) {}

KernelCompile CpuUserKernel::compile(std::string_view source, std::string_view file_name, KernelMode mode) {
    const CpuKernelBuild build = compile_cpu_kernel(source, file_name, mode, cache_dir_);
    KernelCompile result;
    result.mode = mode;
    result.log = build.log;
    result.target = "cpu";
    result.milliseconds = build.milliseconds;
    if (!build.ok) return result;
    // A new sandbox first: the running one keeps its kernel if this one cannot start.
    auto fresh = std::make_unique<sandbox::KernelSandbox>(time_limit_);
    if (auto why = fresh->load(build.so_path.string())) {
        result.log += (result.log.empty() ? "" : "\n") + *why;
        return result;
    }
    sandbox_ = std::move(fresh);
    source_ = std::string(source);
    mode_ = mode;
    result.ok = true;
    return result;
}

void CpuUserKernel::set_time_limit(std::chrono::milliseconds limit) {
    time_limit_ = limit;
    if (sandbox_) sandbox_->set_frame_limit(limit);
}

const Pixel* CpuUserKernel::fallback(int image, const PaintJob& job) {
    const OpParams& p = job.params;
    const std::size_t n = std::size_t(p.width) * p.height;
    if (fallback_[0].size() != n || fallback_width_ != p.width || fallback_cell_ != p.cell) {
        OpParams q = p;
        q.src_a = q.src_b = nullptr;
        prepare_divisors(q);
        fallback_[0].resize(n), fallback_[1].resize(n);
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
                fallback_[0][std::size_t(y) * p.width + x] = source_a(x, y, q);
                fallback_[1][std::size_t(y) * p.width + x] = source_b(x, y, q);
            }
        fallback_width_ = p.width, fallback_cell_ = p.cell;
    }
    return fallback_[image].data();
}

std::optional<std::string> CpuUserKernel::paint(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out,
                                                const Pixel* a, const Pixel* b, std::vector<unsigned>* writer_sm,
                                                OpOutputs& outputs) {
    if (!loaded()) return std::string(kNoUserKernel);
    const int w = job.params.width, h = job.params.height;
    const bool checked = mode_ == KernelMode::Checked;
    sandbox::SandboxFrame f;
    f.grid = resolved.grid, f.block = resolved.launch.block;
    f.width = w, f.height = h, f.t = job.params.seconds;
    f.a = a ? a : fallback(0, job), f.b = b ? b : fallback(1, job);
    f.checked = checked;
    f.max_blocks = checked ? job.max_blocks : -1;
    const bool recording = checked && wants_record(job, writer_sm != nullptr);
    if (recording) {
        f.blocks =
            std::min<unsigned long long>(static_cast<unsigned long long>(resolved.grid.count()), kMaxRecordedBlocks);
        words_.assign(std::size_t(w) * h, 0u), block_sm_.assign(f.blocks, 0u);
        f.writers = words_.data(), f.block_sm = block_sm_.data();
        f.identity = job.view != View::Pixels; // the colour pass paints every pixel from the record
    }
    if (resolved.clear_first && !f.identity)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) out[std::size_t(y) * w + x] = uncovered_pixel(x, y);
    KcViolation violation{};
    if (auto why = sandbox_->run(f, out, &violation)) return why;
    outputs.has_violations = checked;
    outputs.violations = KernelViolations{violation.count, violation, violation.width, violation.height};
    if (recording && needs_colour_pass(job)) show_writers(job, resolved, out, f.blocks);
    // For your kernel the inspector's record holds the record's words, as on the GPU
    // (FramePainter::user_kernel_writer decodes them).
    if (writer_sm) {
        writer_sm->assign(std::size_t(w) * h, 0u);
        if (recording)
            std::copy(words_.begin(), words_.begin() + std::min(words_.size(), writer_sm->size()), writer_sm->begin());
    }
    return std::nullopt;
}

// The views' colours and the marks from the record, as gpu/user_kernel_cuda.cu's colour pass.
void CpuUserKernel::show_writers(const PaintJob& job, const ResolvedLaunch& resolved, Pixel* out,
                                 unsigned long long blocks) {
    const int w = job.params.width, h = job.params.height;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            Pixel& p = out[std::size_t(y) * w + x];
            const Pixel shown = job.view == View::Pixels ? p : Pixel{};
            p = recorded_pixel(job.view, words_.data(), w, h, x, y, shown, resolved.launch.block, resolved.grid,
                               block_sm_.data(), blocks, job.marks);
        }
}

} // namespace kc
