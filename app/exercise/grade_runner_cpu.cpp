// The grader on the CPU backend: the submission compiled by the system's C++ compiler
// (cpukernel/) and run in the kernel sandbox (sandbox/), as any kernel of the user's on the CPU.
#include <fmt/format.h>

#include <algorithm>

#include "app/exercise/grade_runner.h"
#include "cpukernel/cpu_kernel.h"
#include "sandbox/kernel_sandbox.h"

namespace kc {

namespace {

// A graded frame may take longer than a window's frame: the canvas is recorded and counted.
constexpr std::chrono::milliseconds kGradeFrameLimit{10000};
constexpr unsigned long long kMaxRecordedBlocks = 1ULL << 22;

class CpuGradeRunner final : public GradeRunner {
public:
    explicit CpuGradeRunner(std::filesystem::path cache_dir) : cache_dir_(std::move(cache_dir)) {}
    std::string backend() const override { return "cpu"; }

    std::optional<std::string> compile(std::string_view source, std::string_view file_name) override {
        sandbox_.reset();
        const CpuKernelBuild build = compile_cpu_kernel(source, file_name, KernelMode::Checked, cache_dir_, true);
        if (!build.ok) return build.log.empty() ? std::string("the kernel did not compile") : build.log;
        auto fresh = std::make_unique<sandbox::KernelSandbox>(kGradeFrameLimit);
        if (auto why = fresh->load(build.so_path.string())) return *why;
        sandbox_ = std::move(fresh);
        return std::nullopt;
    }

    RunOutput run(const ExerciseLaunch& l, const Pixel* a, const Pixel* b) override {
        RunOutput r;
        if (!sandbox_) return r.error = "no kernel is compiled", r;
        const std::size_t n = std::size_t(l.width) * l.height;
        r.pixels.assign(n, kGradePoison);
        r.writers.assign(n, 0u);
        sandbox::SandboxFrame f;
        f.grid = l.grid, f.block = l.block, f.width = l.width, f.height = l.height;
        f.a = a, f.b = b, f.checked = true;
        f.blocks = std::min<unsigned long long>(static_cast<unsigned long long>(l.grid.count()), kMaxRecordedBlocks);
        block_sm_.assign(f.blocks, 0u);
        f.writers = r.writers.data(), f.block_sm = block_sm_.data();
        r.error = sandbox_->run(f, r.pixels.data(), &r.violation);
        return r;
    }

    std::variant<double, std::string> time(std::string_view, const ExerciseLaunch&, const Pixel*,
                                           const Pixel*) override {
        return std::string("the timing needs a GPU: the CPU backend runs a block's threads one after another, so "
                           "it cannot show what coalescing saves");
    }

private:
    std::filesystem::path cache_dir_;
    std::unique_ptr<sandbox::KernelSandbox> sandbox_;
    std::vector<unsigned> block_sm_;
};

} // namespace

std::variant<std::unique_ptr<GradeRunner>, std::string> make_cpu_runner(const std::filesystem::path& cache_dir) {
    if (auto why = cpu_compiler_unavailable_reason()) return *why;
    return std::unique_ptr<GradeRunner>(std::make_unique<CpuGradeRunner>(cache_dir));
}

} // namespace kc
