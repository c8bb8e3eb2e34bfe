// The grader on a GPU (CUDA builds): the submission compiled by NVRTC in checked mode with the
// access counts, loaded and launched as the window launches your kernel, the canvas, the writer
// record and the views' record read back after each launch. Timing compiles it again in raw mode.
#include "app/exercise/grade_runner.h"

#ifdef KC_HAVE_CUDA
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cuda_runtime_api.h>
#include <thread>

#include "gpu/cuda_check.h"
#include "gpu/cuda_device.h"
#include "gpu/cuda_raii.h"
#include "gpu/user_kernel.h"

namespace kc {

namespace {

constexpr unsigned long long kMaxRecordedBlocks = 1ULL << 22;
constexpr std::chrono::seconds kGradeLaunchLimit{10};

// The device buffers of one launch's canvas, images and records.
struct GpuFrame {
    DeviceBuffer<Pixel> out, a, b;
    DeviceBuffer<unsigned> writers, block_sm;
    DeviceBuffer<KcViolation> violation{1};

    void upload(const ExerciseLaunch& l, const Pixel* ha, const Pixel* hb) {
        const std::size_t n = std::size_t(l.width) * l.height;
        if (out.size() != n)
            out = DeviceBuffer<Pixel>(n), a = DeviceBuffer<Pixel>(n), b = DeviceBuffer<Pixel>(n),
            writers = DeviceBuffer<unsigned>(n);
        const std::size_t blocks = std::min<unsigned long long>(l.grid.count(), kMaxRecordedBlocks);
        if (block_sm.size() != blocks) block_sm = DeviceBuffer<unsigned>(blocks);
        const std::vector<Pixel> poison(n, kGradePoison);
        KC_CUDA_CHECK_THROW(cudaMemcpy(out.data(), poison.data(), out.bytes(), cudaMemcpyHostToDevice));
        KC_CUDA_CHECK_THROW(cudaMemcpy(a.data(), ha, a.bytes(), cudaMemcpyHostToDevice));
        KC_CUDA_CHECK_THROW(cudaMemcpy(b.data(), hb, b.bytes(), cudaMemcpyHostToDevice));
        KC_CUDA_CHECK_THROW(cudaMemset(writers.data(), 0, writers.bytes()));
        KC_CUDA_CHECK_THROW(cudaMemset(violation.data(), 0, violation.bytes()));
    }
    KcCheck check() const {
        return KcCheck{violation.data(), KcRecord{writers.data(), block_sm.data(), block_sm.size()}, -1, 0};
    }
};

class GpuGradeRunner final : public GradeRunner {
public:
    GpuGradeRunner(ComputeCapability cc, std::string name) : cc_(cc), name_(std::move(name)) {}
    std::string backend() const override { return "gpu (" + name_ + ")"; }

    std::optional<std::string> compile(std::string_view source, std::string_view file_name) override {
        kernel_.reset();
        const KernelCompile c = compile_user_kernel(source, cc_, file_name, KernelMode::Checked, true);
        if (!c.ok) return c.log.empty() ? std::string("the kernel did not compile") : c.log;
        try {
            kernel_.emplace(UserKernel::load(c));
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::nullopt;
    }

    RunOutput run(const ExerciseLaunch& l, const Pixel* a, const Pixel* b) override {
        RunOutput r;
        if (hung_) return r.error = *hung_, r;
        if (!kernel_) return r.error = "no kernel is compiled", r;
        if (auto why = kernel_->launch_error(l.block)) return r.error = *why, r;
        try {
            frame_.upload(l, a, b);
            kernel_->launch(l.grid, l.block, frame_.out.data(), l.width, l.height, frame_.a.data(), frame_.b.data(),
                            0.0f, frame_.check(), nullptr);
            if (auto why = finish()) return r.error = *why, r;
            r.pixels.resize(frame_.out.size()), r.writers.resize(frame_.writers.size());
            KC_CUDA_CHECK_THROW(
                cudaMemcpy(r.pixels.data(), frame_.out.data(), frame_.out.bytes(), cudaMemcpyDeviceToHost));
            KC_CUDA_CHECK_THROW(
                cudaMemcpy(r.writers.data(), frame_.writers.data(), frame_.writers.bytes(), cudaMemcpyDeviceToHost));
            KC_CUDA_CHECK_THROW(
                cudaMemcpy(&r.violation, frame_.violation.data(), sizeof(KcViolation), cudaMemcpyDeviceToHost));
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        return r;
    }

    // 3 launches unmeasured, then the median of 21 timed with events.
    std::variant<double, std::string> time(std::string_view source, const ExerciseLaunch& l, const Pixel* a,
                                           const Pixel* b) override {
        if (hung_) return *hung_;
        const KernelCompile c = compile_user_kernel(source, cc_, "timed.cu", KernelMode::Raw);
        if (!c.ok) return "it does not compile in raw mode: " + c.log;
        try {
            const UserKernel k = UserKernel::load(c);
            if (auto why = k.launch_error(l.block)) return *why;
            frame_.upload(l, a, b);
            const CudaEvent start = CudaEvent::create(), stop = CudaEvent::create();
            std::vector<float> ms;
            for (int i = 0; i < 24; ++i) {
                KC_CUDA_CHECK_THROW(cudaEventRecord(start.get(), nullptr));
                k.launch(l.grid, l.block, frame_.out.data(), l.width, l.height, frame_.a.data(), frame_.b.data(), 0.0f,
                         frame_.check(), nullptr);
                KC_CUDA_CHECK_THROW(cudaEventRecord(stop.get(), nullptr));
                KC_CUDA_CHECK_THROW(cudaEventSynchronize(stop.get()));
                float t = 0.0f;
                KC_CUDA_CHECK_THROW(cudaEventElapsedTime(&t, start.get(), stop.get()));
                if (i >= 3) ms.push_back(t);
            }
            std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
            return double(ms[ms.size() / 2]);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
    }

private:
    // Waits for the launch, polling: a kernel that never ends is reported after kGradeLaunchLimit
    // (the GPU cannot stop it; this runner then refuses every later launch).
    std::optional<std::string> finish() {
        const auto deadline = std::chrono::steady_clock::now() + kGradeLaunchLimit;
        cudaError_t e = cudaStreamQuery(nullptr);
        for (; e == cudaErrorNotReady; e = cudaStreamQuery(nullptr)) {
            if (std::chrono::steady_clock::now() > deadline) {
                hung_ = fmt::format("the kernel did not finish within {} s (an endless loop?)",
                                    std::chrono::duration_cast<std::chrono::seconds>(kGradeLaunchLimit).count());
                return hung_;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (e != cudaSuccess) return fmt::format("the launch failed: {}", cudaGetErrorString(e));
        return std::nullopt;
    }

    ComputeCapability cc_;
    std::optional<std::string> hung_;
    std::string name_;
    std::optional<UserKernel> kernel_;
    GpuFrame frame_;
};

} // namespace

std::variant<std::unique_ptr<GradeRunner>, std::string> make_gpu_runner(int gpu) {
    if (auto why = cuda_unavailable_reason()) return *why;
    if (auto why = nvrtc_unavailable_reason()) return *why;
    try {
        KC_CUDA_CHECK_THROW(cudaSetDevice(gpu));
        cudaDeviceProp prop{};
        KC_CUDA_CHECK_THROW(cudaGetDeviceProperties(&prop, gpu));
        return std::unique_ptr<GradeRunner>(std::make_unique<GpuGradeRunner>(current_device_capability(), prop.name));
    } catch (const std::exception& e) {
        return fmt::format("GPU {} cannot grade: {}", gpu, e.what());
    }
}

} // namespace kc

#else

namespace kc {

std::variant<std::unique_ptr<GradeRunner>, std::string> make_gpu_runner(int) {
    return std::string("this kcanvas was built without CUDA (KC_WITH_CUDA=OFF): it grades on the CPU backend");
}

} // namespace kc

#endif
