#include "render/cuda_gl_buffer.h"

#include <cuda_gl_interop.h>

#include <algorithm>
#include <utility>

#include "gpu/cuda_check.h"
#include "render/gl_objects.h"

namespace kc {

GlGpus cuda_devices_for_current_gl() {
    unsigned count = 0;
    int devices[8] = {};
    const cudaError_t e = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return {{}, std::string("CUDA cannot use this OpenGL context: ") + cudaGetErrorString(e)};
    }
    if (count == 0) return {{}, "the OpenGL context runs on no CUDA device"};
    return {std::vector<int>(devices, devices + std::min(count, 8u)), {}};
}

std::optional<std::string> gl_buffer_registration_error() {
    try {
        GlBuffer probe = GlBuffer::create();
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, probe.id());
        glBufferData(GL_PIXEL_UNPACK_BUFFER, 1024, nullptr, GL_STREAM_DRAW);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        CudaGlBuffer test(probe.id()); // unregistered before the probe buffer is deleted
    } catch (const std::exception& e) {
        return std::string("CUDA cannot register GL buffers here: ") + e.what();
    }
    return std::nullopt;
}

CudaGlBuffer::CudaGlBuffer(GLuint buffer) {
    KC_CUDA_CHECK_THROW(cudaGraphicsGLRegisterBuffer(&resource_, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
}

CudaGlBuffer::CudaGlBuffer(CudaGlBuffer&& o) noexcept : resource_(std::exchange(o.resource_, nullptr)) {}

CudaGlBuffer& CudaGlBuffer::operator=(CudaGlBuffer&& o) noexcept {
    if (this != &o) {
        if (resource_) KC_CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
        resource_ = std::exchange(o.resource_, nullptr);
    }
    return *this;
}

CudaGlBuffer::~CudaGlBuffer() {
    if (resource_) KC_CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
}

CudaGlImage::CudaGlImage(GLuint texture) {
    KC_CUDA_CHECK_THROW(
        cudaGraphicsGLRegisterImage(&resource_, texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore));
}

CudaGlImage::CudaGlImage(CudaGlImage&& o) noexcept : resource_(std::exchange(o.resource_, nullptr)) {}

CudaGlImage& CudaGlImage::operator=(CudaGlImage&& o) noexcept {
    if (this != &o) {
        if (resource_) KC_CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
        resource_ = std::exchange(o.resource_, nullptr);
    }
    return *this;
}

CudaGlImage::~CudaGlImage() {
    if (resource_) KC_CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
}

ScopedCudaImageMap::ScopedCudaImageMap(const CudaGlImage& image, cudaStream_t stream)
    : resource_(image.resource()), stream_(stream) {
    KC_CUDA_CHECK_THROW(cudaGraphicsMapResources(1, &resource_, stream_));
    cudaError_t e = cudaGraphicsSubResourceGetMappedArray(&array_, resource_, 0, 0);
    if (e == cudaSuccess) {
        cudaResourceDesc desc{};
        desc.resType = cudaResourceTypeArray;
        desc.res.array.array = array_;
        e = cudaCreateSurfaceObject(&surface_, &desc);
    }
    if (e != cudaSuccess) {
        KC_CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, stream_));
        throw CudaError(e, "mapping the GL texture for CUDA", __FILE__, __LINE__);
    }
}

ScopedCudaImageMap::~ScopedCudaImageMap() {
    KC_CUDA_CHECK_PRINT(cudaDestroySurfaceObject(surface_));
    KC_CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, stream_));
}

ScopedCudaMap::ScopedCudaMap(const CudaGlBuffer& buffer, cudaStream_t stream)
    : resource_(buffer.resource()), stream_(stream) {
    KC_CUDA_CHECK_THROW(cudaGraphicsMapResources(1, &resource_, stream_));
    void* p = nullptr;
    const cudaError_t e = cudaGraphicsResourceGetMappedPointer(&p, &bytes_, resource_);
    if (e != cudaSuccess) {
        KC_CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, stream_));
        throw CudaError(e, "cudaGraphicsResourceGetMappedPointer", __FILE__, __LINE__);
    }
    pixels_ = static_cast<Pixel*>(p);
}

ScopedCudaMap::~ScopedCudaMap() { KC_CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, stream_)); }

} // namespace kc
