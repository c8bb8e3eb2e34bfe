#include "cpukernel/cpu_kernel.h"

#include <stdexcept>

namespace kc {

// Stub bodies: the interface first (issue 27, part B codes against it).
struct CpuKernelModule::State {
    KernelMode mode = KernelMode::Checked;
    bool barriers = false;
};

std::optional<std::string> cpu_compiler_unavailable_reason() { return "not yet"; }

CpuKernelBuild compile_cpu_kernel(std::string_view, std::string_view, KernelMode mode, const std::filesystem::path&) {
    CpuKernelBuild b;
    b.mode = mode;
    b.log = "kernels on the CPU are not built yet";
    return b;
}

CpuKernelModule::CpuKernelModule(std::unique_ptr<State> state) : state_(std::move(state)) {}
CpuKernelModule::CpuKernelModule(CpuKernelModule&&) noexcept = default;
CpuKernelModule& CpuKernelModule::operator=(CpuKernelModule&&) noexcept = default;
CpuKernelModule::~CpuKernelModule() = default;

CpuKernelModule CpuKernelModule::load(const std::filesystem::path&) {
    throw std::runtime_error("kernels on the CPU are not built yet");
}

void CpuKernelModule::start_workers(int) {}

std::optional<std::string> CpuKernelModule::run(const CpuKernelLaunch&, int, const std::atomic<bool>*) const {
    return "kernels on the CPU are not built yet";
}

KernelMode CpuKernelModule::mode() const { return state_->mode; }
bool CpuKernelModule::has_barriers() const { return state_->barriers; }

} // namespace kc
