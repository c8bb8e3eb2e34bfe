#pragma once
// The user's own kernel: CUDA source typed in the panel (or --kernel FILE.cu), compiled at run time
// with NVRTC and loaded with the runtime's library API (cudaLibraryLoadData). NVRTC is opened with
// dlopen when first needed, so kcanvas starts on machines with only the driver and says what is
// missing when a kernel is compiled there. kcanvas links neither libnvrtc nor libcuda.
//
// The user's source is compiled after a prelude (gpu/kernel_source.h, shown read-only in the
// panel) that defines Pixel, a few helpers and, in checked mode (the default), the checked views
// out, a and b reach the kernel as. The kernel's signature:
//   extern "C" __global__ void paint(Pixel* out, int width, int height,
//                                    const Pixel* a, const Pixel* b, float t);
// out, a and b are width*height pixels, row-major; a and b are the input images (else the gradient
// and the checkerboard); t is seconds since the start. The user's code computes its pixel from
// blockIdx/blockDim/threadIdx and checks the bounds itself.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/kernel_source.h"
#include "gpu/prelude/kcanvas_check_abi.h"

#ifdef KC_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/context_lost.h"
#include "gpu/cuda_raii.h"
#include "gpu/launch_config.h"
#include "gpu/pixel.h"
#endif

namespace kc {

// A kernel shipped in assets/kernels (built into the binary): its file name without ".cu", a
// title (the file's first comment line) and the source.
struct StarterKernel {
    std::string_view name;
    std::string_view title;
    std::string_view source;
};
std::span<const StarterKernel> starter_kernels();
const StarterKernel* find_starter(std::string_view name);
const StarterKernel& default_starter(); // the gradient

// Why user_kernel is refused before a kernel of the user's has been compiled and loaded.
inline constexpr const char* kNoUserKernel = "no kernel of yours is compiled yet: write one and press Compile";

struct ComputeCapability {
    int major = 0, minor = 0;
};

// Why NVRTC cannot be loaded here ("live kernels need NVRTC (libnvrtc.so.13 from the CUDA
// toolkit): <dlerror>"), or nullopt when it can.
std::optional<std::string> nvrtc_unavailable_reason();

struct KernelCompile {
    bool ok = false;
    KernelMode mode = KernelMode::Checked;
    std::string log;         // NVRTC's messages (warnings too), or why it did not run
    std::string target;      // "sm_90" (a CUBIN), or "compute_XY" (PTX the driver finishes)
    std::vector<char> image; // the CUBIN, or NUL-terminated PTX
    double milliseconds = 0.0;
};

// Compiles the user's `source` (the prelude is added) for a GPU of capability `cc`. Needs NVRTC
// but no GPU. `file_name` names the source in the log ("kernel.cu(7): error: ..."); the line
// numbers are the user's in both modes.
// `count_accesses`: a grading compile (kernel_text's; checked mode only).
KernelCompile compile_user_kernel(std::string_view source, ComputeCapability cc,
                                  std::string_view file_name = "kernel.cu", KernelMode mode = KernelMode::Checked,
                                  bool count_accesses = false);

#ifdef KC_HAVE_CUDA
ComputeCapability current_device_capability(); // throws CudaError

struct CudaLibraryUnload {
    void operator()(cudaLibrary_t library) const { KC_CUDA_CHECK_PRINT(cudaLibraryUnload(library)); }
};
using CudaLibrary = UniqueCudaHandle<cudaLibrary_t, CudaLibraryUnload>;

// A compiled user kernel loaded into the current device's context (move-only: it owns the library).
class UserKernel {
public:
    // Throws std::runtime_error saying why it cannot be loaded (no `paint`, image for another GPU).
    static UserKernel load(const KernelCompile& compiled);

    // Why `block` cannot launch this kernel (its registers limit the threads per block), or nullopt.
    std::optional<std::string> launch_error(const Dim3& block) const;
    // `check` goes to checked mode's entry (views, step mode, the violation record); raw mode ignores it.
    void launch(const Dim3& grid, const Dim3& block, Pixel* out, int width, int height, const Pixel* a, const Pixel* b,
                float t, KcCheck check, cudaStream_t stream) const;
    KernelMode mode() const { return mode_; }
    int registers_per_thread() const { return attributes_.numRegs; }
    int max_threads_per_block() const { return attributes_.maxThreadsPerBlock; }

private:
    UserKernel() = default;
    CudaLibrary library_;
    cudaKernel_t kernel_{};
    cudaFuncAttributes attributes_{};
    KernelMode mode_ = KernelMode::Checked;
};

// The user's kernel through its life in a painter: compiled for one GPU, loaded, run until a
// newer one loads. A compile or load that fails leaves the last good kernel (and its source).
class UserKernelSlot {
public:
    explicit UserKernelSlot(ComputeCapability cc) : cc_(cc) {}
    // Compiles and loads `source`; on success it replaces the running kernel once
    // `finish_in_flight` has returned (it waits for frames that may still run the old one, and may
    // throw CudaContextLost). Other load failures come back in the log, with ok false.
    KernelCompile compile(std::string_view source, std::string_view file_name, KernelMode mode,
                          const std::function<void()>& finish_in_flight);
    const UserKernel* kernel() const { return kernel_ ? &*kernel_ : nullptr; }
    const std::string& source() const { return source_; } // of the kernel that runs (saved when it faults)
    // Why the running kernel cannot launch `block`, or that none is compiled; nullopt when it can.
    std::optional<std::string> launch_refusal(const Dim3& block) const;

private:
    ComputeCapability cc_;
    std::optional<UserKernel> kernel_;
    std::string source_;
};
#endif

} // namespace kc
