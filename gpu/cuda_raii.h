#pragma once
// Move-only owners of CUDA handles: each frees its handle exactly once, in its destructor.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "gpu/cuda_check.h"

namespace kc {

template <class Handle, class Deleter>
class UniqueCudaHandle {
public:
    UniqueCudaHandle() = default;
    explicit UniqueCudaHandle(Handle h) : handle_(h) {}
    UniqueCudaHandle(UniqueCudaHandle&& o) noexcept : handle_(std::exchange(o.handle_, Handle{})) {}
    UniqueCudaHandle& operator=(UniqueCudaHandle&& o) noexcept {
        if (this != &o) {
            reset();
            handle_ = std::exchange(o.handle_, Handle{});
        }
        return *this;
    }
    UniqueCudaHandle(const UniqueCudaHandle&) = delete;
    UniqueCudaHandle& operator=(const UniqueCudaHandle&) = delete;
    ~UniqueCudaHandle() { reset(); }

    Handle get() const { return handle_; }
    explicit operator bool() const { return handle_ != Handle{}; }
    void reset() {
        if (handle_ != Handle{}) Deleter{}(std::exchange(handle_, Handle{}));
    }

private:
    Handle handle_{};
};

struct StreamDeleter {
    void operator()(cudaStream_t s) const { KC_CUDA_CHECK_PRINT(cudaStreamDestroy(s)); }
};
struct EventDeleter {
    void operator()(cudaEvent_t e) const { KC_CUDA_CHECK_PRINT(cudaEventDestroy(e)); }
};
struct DeviceFree {
    void operator()(void* p) const { KC_CUDA_CHECK_PRINT(cudaFree(p)); }
};
struct HostFree {
    void operator()(void* p) const { KC_CUDA_CHECK_PRINT(cudaFreeHost(p)); }
};

class CudaStream : public UniqueCudaHandle<cudaStream_t, StreamDeleter> {
public:
    static CudaStream create() {
        cudaStream_t s{};
        KC_CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        return CudaStream(s);
    }
    using UniqueCudaHandle::UniqueCudaHandle;
};

class CudaEvent : public UniqueCudaHandle<cudaEvent_t, EventDeleter> {
public:
    static CudaEvent create() {
        cudaEvent_t e{};
        KC_CUDA_CHECK_THROW(cudaEventCreate(&e));
        return CudaEvent(e);
    }
    using UniqueCudaHandle::UniqueCudaHandle;
};

// `count` elements of T in device memory (DeviceFree) or page-locked host memory (HostFree).
template <class T, class Free>
class CudaBuffer {
public:
    CudaBuffer() = default;
    explicit CudaBuffer(std::size_t count) : count_(count) {
        void* p = nullptr;
        if (count == 0) return;
        if constexpr (std::is_same_v<Free, DeviceFree>)
            KC_CUDA_CHECK_THROW(cudaMalloc(&p, count * sizeof(T)));
        else
            KC_CUDA_CHECK_THROW(cudaMallocHost(&p, count * sizeof(T)));
        ptr_ = UniqueCudaHandle<void*, Free>(p);
    }
    CudaBuffer(CudaBuffer&& o) noexcept : ptr_(std::move(o.ptr_)), count_(std::exchange(o.count_, 0)) {}
    CudaBuffer& operator=(CudaBuffer&& o) noexcept {
        ptr_ = std::move(o.ptr_);
        count_ = std::exchange(o.count_, 0);
        return *this;
    }
    T* data() const { return static_cast<T*>(ptr_.get()); }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    UniqueCudaHandle<void*, Free> ptr_;
    std::size_t count_ = 0;
};

template <class T>
using DeviceBuffer = CudaBuffer<T, DeviceFree>;
template <class T>
using PinnedBuffer = CudaBuffer<T, HostFree>;

} // namespace kc
