#include "gpu/user_kernel.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

#ifdef KC_HAVE_CUDA
#include "gpu/cuda_check.h"
#endif

namespace kc {

namespace {

// The few NVRTC entry points kcanvas uses, resolved with dlsym; types as in nvrtc.h.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;
constexpr nvrtcResult kNvrtcSuccess = 0;

struct Nvrtc {
    std::optional<std::string> error; // why it could not be loaded
    int major = 0, minor = 0;
    std::vector<int> archs; // supported SM architectures, e.g. 75 ... 120
    const char* (*GetErrorString)(nvrtcResult) = nullptr;
    nvrtcResult (*Version)(int*, int*) = nullptr;
    nvrtcResult (*GetNumSupportedArchs)(int*) = nullptr;
    nvrtcResult (*GetSupportedArchs)(int*) = nullptr;
    nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                 const char* const*) = nullptr;
    nvrtcResult (*DestroyProgram)(nvrtcProgram*) = nullptr;
    nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
    nvrtcResult (*GetProgramLogSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*GetProgramLog)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*GetCUBINSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*GetCUBIN)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*GetPTXSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*GetPTX)(nvrtcProgram, char*) = nullptr;
};

Nvrtc open_nvrtc() {
    Nvrtc n;
    void* lib = nullptr;
    std::string tried;
    for (const char* name : {"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13", "libnvrtc.so"}) {
        if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
        const char* why = dlerror();
        if (tried.empty()) tried = why ? why : name; // the first name's error is the telling one
    }
    if (!lib) {
        n.error = "live kernels need NVRTC (libnvrtc.so.13 from the CUDA toolkit): " + tried;
        return n; // never closed: the process keeps using it
    }
    bool missing = false;
    auto resolve = [&](auto& fn, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, symbol));
        if (!fn && !missing)
            missing = true, n.error = fmt::format("live kernels need NVRTC, but this libnvrtc lacks {}", symbol);
    };
    resolve(n.GetErrorString, "nvrtcGetErrorString");
    resolve(n.Version, "nvrtcVersion");
    resolve(n.GetNumSupportedArchs, "nvrtcGetNumSupportedArchs");
    resolve(n.GetSupportedArchs, "nvrtcGetSupportedArchs");
    resolve(n.CreateProgram, "nvrtcCreateProgram");
    resolve(n.DestroyProgram, "nvrtcDestroyProgram");
    resolve(n.CompileProgram, "nvrtcCompileProgram");
    resolve(n.GetProgramLogSize, "nvrtcGetProgramLogSize");
    resolve(n.GetProgramLog, "nvrtcGetProgramLog");
    resolve(n.GetCUBINSize, "nvrtcGetCUBINSize");
    resolve(n.GetCUBIN, "nvrtcGetCUBIN");
    resolve(n.GetPTXSize, "nvrtcGetPTXSize");
    resolve(n.GetPTX, "nvrtcGetPTX");
    if (missing) return n;
    n.Version(&n.major, &n.minor);
    int count = 0;
    if (n.GetNumSupportedArchs(&count) == kNvrtcSuccess && count > 0) {
        n.archs.resize(static_cast<std::size_t>(count));
        if (n.GetSupportedArchs(n.archs.data()) != kNvrtcSuccess) n.archs.clear();
    }
    return n;
}

// Opened once, on first use (the library stays loaded for the process, as a linked one would).
const Nvrtc& nvrtc() {
    static const Nvrtc n = open_nvrtc();
    return n;
}

// The architecture to compile for: the device's own as a CUBIN when NVRTC knows it; for a GPU
// newer than this NVRTC, PTX of the newest architecture it knows, which the driver compiles on load.
std::optional<std::string> pick_target(const Nvrtc& n, ComputeCapability cc, std::string& target, bool& ptx) {
    const int arch = cc.major * 10 + cc.minor;
    ptx = false;
    if (n.archs.empty() || std::find(n.archs.begin(), n.archs.end(), arch) != n.archs.end()) {
        target = fmt::format("sm_{}", arch);
        return std::nullopt;
    }
    if (arch > n.archs.back()) {
        target = fmt::format("compute_{}", n.archs.back());
        ptx = true;
        return std::nullopt;
    }
    return fmt::format("NVRTC {}.{} cannot compile for compute capability {}.{} (it knows sm_{} to sm_{})", n.major,
                       n.minor, cc.major, cc.minor, n.archs.front(), n.archs.back());
}

} // namespace

std::optional<std::string> nvrtc_unavailable_reason() { return nvrtc().error; }

const StarterKernel* find_starter(std::string_view name) {
    for (const StarterKernel& s : starter_kernels())
        if (s.name == name) return &s;
    return nullptr;
}

const StarterKernel& default_starter() {
    const StarterKernel* gradient = find_starter("gradient");
    return gradient ? *gradient : starter_kernels().front();
}

namespace {

// NVRTC's log of `program` without its terminating NUL; empty where it wrote none.
std::string program_log(const Nvrtc& n, nvrtcProgram program) {
    std::size_t size = 0;
    if (n.GetProgramLogSize(program, &size) != kNvrtcSuccess || size <= 1) return {};
    std::string log(size, '\0');
    n.GetProgramLog(program, log.data());
    log.resize(size - 1);
    return log;
}

// The line a failed compile's log gets when the user changed the signature NVRTC must find.
std::string_view signature_hint(std::string_view log) {
    if (log.find("function \"paint\" has \"C\" linkage") == std::string_view::npos) return {};
    return "hint: paint must keep the signature of the prelude's declaration:\n"
           "  extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, "
           "const Pixel* b, float t)\n";
}

// The compiled program's PTX or CUBIN into `image`; nullopt, or why NVRTC gave none.
std::optional<std::string> take_image(const Nvrtc& n, nvrtcProgram program, bool ptx, std::vector<char>& image) {
    std::size_t size = 0;
    const nvrtcResult got = ptx ? n.GetPTXSize(program, &size) : n.GetCUBINSize(program, &size);
    if (got != kNvrtcSuccess || size == 0)
        return fmt::format("NVRTC compiled but returned no {}", ptx ? "PTX" : "CUBIN");
    image.resize(size);
    if ((ptx ? n.GetPTX(program, image.data()) : n.GetCUBIN(program, image.data())) == kNvrtcSuccess)
        return std::nullopt;
    image.clear();
    return "NVRTC could not return the compiled code";
}

// compile_user_kernel() but for the clock.
KernelCompile compile_with_nvrtc(std::string_view source, ComputeCapability cc, std::string_view file_name,
                                 KernelMode mode, bool count_accesses) {
    KernelCompile result;
    result.mode = mode;
    const Nvrtc& n = nvrtc();
    if (n.error) {
        result.log = *n.error;
        return result;
    }
    bool ptx = false;
    if (auto e = pick_target(n, cc, result.target, ptx)) {
        result.log = *e;
        return result;
    }
    // #line makes NVRTC count the user's lines from 1 under their file's name.
    const std::string name(file_name.empty() ? "kernel.cu" : file_name);
    const CompileText kernel = kernel_text(source, name, mode, KernelTarget::Gpu, count_accesses);
    if (kernel.refusal) {
        result.log = *kernel.refusal;
        return result;
    }
    const std::string& text = kernel.text;
    nvrtcProgram program = nullptr;
    if (nvrtcResult r = n.CreateProgram(&program, text.c_str(), name.c_str(), 0, nullptr, nullptr);
        r != kNvrtcSuccess) {
        result.log = fmt::format("NVRTC could not create the program: {}", n.GetErrorString(r));
        return result;
    }
    struct Destroy {
        const Nvrtc& n;
        nvrtcProgram& p;
        ~Destroy() { n.DestroyProgram(&p); }
    } destroy{n, program};

    const std::string arch = "--gpu-architecture=" + result.target;
    // Functions without __device__ are device functions, so helpers need no qualifier. No fused
    // multiply-adds unless written (fmaf): the CPU backend's compiler rounds a*b+c twice, as this does.
    const char* options[] = {arch.c_str(), "-std=c++17", "--device-as-default-execution-space", "--generate-line-info",
                             "--fmad=false"};
    const nvrtcResult compiled = n.CompileProgram(program, static_cast<int>(std::size(options)), options);
    result.log = program_log(n, program);
    if (compiled != kNvrtcSuccess) {
        if (result.log.empty()) result.log = n.GetErrorString(compiled);
        result.log += signature_hint(result.log);
        return result;
    }
    if (auto e = take_image(n, program, ptx, result.image)) {
        result.log += *e;
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace

KernelCompile compile_user_kernel(std::string_view source, ComputeCapability cc, std::string_view file_name,
                                  KernelMode mode, bool count_accesses) {
    const auto t0 = std::chrono::steady_clock::now();
    KernelCompile result = compile_with_nvrtc(source, cc, file_name, mode, count_accesses);
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

#ifdef KC_HAVE_CUDA
ComputeCapability current_device_capability() {
    int device = 0;
    KC_CUDA_CHECK_THROW(cudaGetDevice(&device));
    ComputeCapability cc;
    KC_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&cc.major, cudaDevAttrComputeCapabilityMajor, device));
    KC_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&cc.minor, cudaDevAttrComputeCapabilityMinor, device));
    return cc;
}

UserKernel UserKernel::load(const KernelCompile& compiled) {
    if (!compiled.ok || compiled.image.empty()) throw std::runtime_error("nothing compiled to load");
    UserKernel k;
    cudaLibrary_t library{};
    if (const cudaError_t e =
            cudaLibraryLoadData(&library, compiled.image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
        e != cudaSuccess) {
        (void)cudaGetLastError(); // a failed load is not sticky: clear it for the next checks
        throw std::runtime_error(
            fmt::format("the GPU cannot load the compiled kernel ({}): {}", compiled.target, cudaGetErrorString(e)));
    }
    k.library_ = CudaLibrary(library);
    k.mode_ = compiled.mode;
    if (const cudaError_t e = cudaLibraryGetKernel(&k.kernel_, library, kernel_entry(k.mode_)); e != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::runtime_error("your code defines no kernel named paint: keep the signature\n"
                                 "  extern \"C\" __global__ void paint(Pixel* out, int width, int height, const Pixel* "
                                 "a, const Pixel* b, float t)");
    }
    // A cudaKernel_t goes where the runtime takes a kernel as `const void*`.
    KC_CUDA_CHECK_THROW(cudaFuncGetAttributes(&k.attributes_, reinterpret_cast<const void*>(k.kernel_)));
    return k;
}

std::optional<std::string> UserKernel::launch_error(const Dim3& block) const {
    if (block.count() <= attributes_.maxThreadsPerBlock) return std::nullopt;
    return fmt::format("block {} has {} threads, but your kernel uses {} registers per thread, so at most {} threads "
                       "fit in a block: use a smaller block (or fewer variables)",
                       to_string(block), block.count(), attributes_.numRegs, attributes_.maxThreadsPerBlock);
}

void UserKernel::launch(const Dim3& grid, const Dim3& block, Pixel* out, int width, int height, const Pixel* a,
                        const Pixel* b, float t, KcCheck check, cudaStream_t stream) const {
    void* args[] = {&out, &width, &height, &a, &b, &t, &check}; // raw mode's paint takes the first six

    KC_CUDA_CHECK_THROW(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(grid.x, grid.y, grid.z),
                                         dim3(block.x, block.y, block.z), args, 0, stream));
}

KernelCompile UserKernelSlot::compile(std::string_view source, std::string_view file_name, KernelMode mode,
                                      const std::function<void()>& finish_in_flight) {
    KernelCompile compiled = compile_user_kernel(source, cc_, file_name, mode);
    if (!compiled.ok) return compiled;
    try {
        UserKernel loaded = UserKernel::load(compiled);
        finish_in_flight(); // frames still in flight may run the old kernel: let them end before it is unloaded
        kernel_ = std::move(loaded);
        source_ = std::string(source);
    } catch (const CudaContextLost&) {
        throw;
    } catch (const std::exception& e) {
        compiled.ok = false;
        compiled.log += (compiled.log.empty() ? "" : "\n") + std::string(e.what());
    }
    return compiled;
}

std::optional<std::string> UserKernelSlot::launch_refusal(const Dim3& block) const {
    if (!kernel_) return std::string(kNoUserKernel);
    return kernel_->launch_error(block);
}

#endif

} // namespace kc
