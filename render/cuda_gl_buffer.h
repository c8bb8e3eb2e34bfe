#pragma once
// CUDA-OpenGL interop: the only place that includes cuda_gl_interop.h (in the .cpp).
#include <glad/gl.h>

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "gpu/gpu_select.h"
#include "gpu/pixel.h"

struct cudaGraphicsResource;

namespace kc {

// The CUDA devices that run the current GL context (cudaGLGetDevices), or why there are none
// (software GL, a GL driver on another GPU, WSL2...).
GlGpus cuda_devices_for_current_gl();
// Registers a small GL buffer with CUDA on the current device and unregisters it: nullopt when
// that works, else why not. Registration fails on some set-ups (WSL2, hybrid laptops) even when
// the devices match.
std::optional<std::string> gl_buffer_registration_error();

// A GL buffer registered with CUDA for write-discard access; unregistered in the destructor.
class CudaGlBuffer {
public:
    CudaGlBuffer() = default;
    explicit CudaGlBuffer(GLuint buffer); // throws CudaError when registration fails
    CudaGlBuffer(CudaGlBuffer&& o) noexcept;
    CudaGlBuffer& operator=(CudaGlBuffer&& o) noexcept;
    CudaGlBuffer(const CudaGlBuffer&) = delete;
    CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;
    ~CudaGlBuffer();
    cudaGraphicsResource* resource() const { return resource_; }
    explicit operator bool() const { return resource_ != nullptr; }

private:
    cudaGraphicsResource* resource_ = nullptr;
};

// Maps the buffer for CUDA for this object's lifetime. GL must not touch the buffer meanwhile,
// so keep the scope to the kernel launch.
class ScopedCudaMap {
public:
    ScopedCudaMap(const CudaGlBuffer& buffer, cudaStream_t stream);
    ~ScopedCudaMap();
    ScopedCudaMap(const ScopedCudaMap&) = delete;
    ScopedCudaMap& operator=(const ScopedCudaMap&) = delete;
    Pixel* pixels() const { return pixels_; }
    std::size_t bytes() const { return bytes_; }

private:
    cudaGraphicsResource* resource_;
    cudaStream_t stream_;
    Pixel* pixels_ = nullptr;
    std::size_t bytes_ = 0;
};

// A GL texture registered with CUDA as an image (surface load/store allowed).
class CudaGlImage {
public:
    CudaGlImage() = default;
    explicit CudaGlImage(GLuint texture); // throws CudaError when registration fails
    CudaGlImage(CudaGlImage&& o) noexcept;
    CudaGlImage& operator=(CudaGlImage&& o) noexcept;
    CudaGlImage(const CudaGlImage&) = delete;
    CudaGlImage& operator=(const CudaGlImage&) = delete;
    ~CudaGlImage();
    cudaGraphicsResource* resource() const { return resource_; }
    explicit operator bool() const { return resource_ != nullptr; }

private:
    cudaGraphicsResource* resource_ = nullptr;
};

// Maps the texture for CUDA for this object's lifetime and exposes its array and a surface object.
class ScopedCudaImageMap {
public:
    ScopedCudaImageMap(const CudaGlImage& image, cudaStream_t stream);
    ~ScopedCudaImageMap();
    ScopedCudaImageMap(const ScopedCudaImageMap&) = delete;
    ScopedCudaImageMap& operator=(const ScopedCudaImageMap&) = delete;
    cudaArray_t array() const { return array_; }
    cudaSurfaceObject_t surface() const { return surface_; }

private:
    cudaGraphicsResource* resource_;
    cudaStream_t stream_;
    cudaArray_t array_ = nullptr;
    cudaSurfaceObject_t surface_ = 0;
};

} // namespace kc
