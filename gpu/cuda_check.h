#pragma once
// Checked CUDA calls. THROW is for ordinary code: it throws kc::CudaError naming the file, line and
// expression. PRINT is for destructors and cleanup, which must never throw.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace kc {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const char* expr, const char* file, int line)
        : std::runtime_error(std::string(cudaGetErrorString(code)) + " (" + cudaGetErrorName(code) + ") in " + expr +
                             " at " + file + ":" + std::to_string(line)),
          code_(code) {}
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

// Errors that leave the CUDA context unusable (a kernel faulted): every later CUDA call in this
// process fails the same way, so the process must end; the CUDA docs offer no way back.
inline bool is_sticky_error(cudaError_t code) {
    switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
        return true;
    default:
        return false;
    }
}

} // namespace kc

#define KC_CUDA_CHECK_THROW(expr)                                                                                      \
    do {                                                                                                               \
        const cudaError_t kc_status_ = (expr);                                                                         \
        if (kc_status_ != cudaSuccess) throw ::kc::CudaError(kc_status_, #expr, __FILE__, __LINE__);                   \
    } while (0)

#define KC_CUDA_CHECK_PRINT(expr)                                                                                      \
    do {                                                                                                               \
        const cudaError_t kc_status_ = (expr);                                                                         \
        if (kc_status_ != cudaSuccess)                                                                                 \
            std::fprintf(stderr, "kcanvas: CUDA error %s in %s at %s:%d\n", cudaGetErrorString(kc_status_), #expr,     \
                         __FILE__, __LINE__);                                                                          \
    } while (0)
