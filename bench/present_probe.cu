// present_probe: where a 3840x2160 CUDA->GL frame spends its time, measured outside kcanvas with raw
// GL/CUDA calls so nothing of the app's own code is in the way. It answers three questions:
//   1. What does GL itself cost here (draw, blit, copy, clear at 1080p and 4K; GPU timer queries)?
//   2. What does handing work between CUDA and GL cost, with and without graphics interop (tiny
//      kernels and clears with CPU waits, map/unmap alone, fences)?
//   3. Does GL external memory (a CUDA VMM allocation exported as an fd, imported with
//      GL_EXT_memory_object_fd) avoid the per-frame map, and is the frame any faster with it?
// `present_probe` runs 1 and 3 and the interop part of 2; `present_probe sync` runs the hand-over
// part of 2 (incl. context priorities and EGL syncs); `present_probe double` whether a second texture
// lets the kernel overlap the draw. Findings on the H200: results/README.md.
// Not built by default: `cmake --build build --target present_probe` (needs libcuda at link time).
#include <glad/gl.h>

#include <cuda.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "render/gl_context.h"
#include <dlfcn.h>
#include <glad/egl.h>
using EventFromEglSync = CUresult (*)(CUevent*, void*, unsigned int);
static EventFromEglSync cuEventCreateFromEGLSync_ = nullptr;
#include <thread>

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            std::printf("CUDA %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_));                     \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)
#define CU(x)                                                                                                          \
    do {                                                                                                               \
        CUresult r_ = (x);                                                                                             \
        if (r_ != CUDA_SUCCESS) {                                                                                      \
            const char* s_ = nullptr;                                                                                  \
            cuGetErrorString(r_, &s_);                                                                                 \
            std::printf("CU %s at %s:%d: %s\n", #x, __FILE__, __LINE__, s_ ? s_ : "?");                                \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)

using Clock = std::chrono::steady_clock;
constexpr int W = 3840, H = 2160, SW = 1920, SH = 1080;
constexpr int REPS = 200, WARM = 20;

__device__ unsigned value_at(int x, int y, int frame) {
    return 0xff000000u | ((x + frame) & 0xff) | (((y + 3 * frame) & 0xff) << 8) | (((x ^ y) & 0xff) << 16);
}
__global__ void paint_linear(unsigned* p, int w, int h, int frame) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) p[std::size_t(y) * w + x] = value_at(x, y, frame);
}
__global__ void paint_surface(cudaSurfaceObject_t s, int w, int h, int frame) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(value_at(x, y, frame), s, x * 4, y);
}
unsigned host_value(int x, int y, int frame) {
    return 0xff000000u | ((x + frame) & 0xff) | (((y + 3 * frame) & 0xff) << 8) | (((x ^ y) & 0xff) << 16);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Wall time per frame of `body` run back to back, everything finished at the end.
double streamed(const std::function<void()>& body, int reps = REPS) {
    for (int i = 0; i < WARM; ++i) body();
    cudaDeviceSynchronize();
    glFinish();
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) body();
    cudaDeviceSynchronize();
    glFinish();
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
}
// Wall time of one frame run alone (each finished before the next starts), median.
double alone(const std::function<void()>& body, int reps = 100) {
    std::vector<double> t;
    for (int i = 0; i < WARM + reps; ++i) {
        cudaDeviceSynchronize();
        glFinish();
        const auto t0 = Clock::now();
        body();
        cudaDeviceSynchronize();
        glFinish();
        if (i >= WARM) t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return median(t);
}
// GPU time of GL work (GL_TIME_ELAPSED), median.
double gl_gpu(const std::function<void()>& body, int reps = 50) {
    GLuint q;
    glGenQueries(1, &q);
    std::vector<double> t;
    for (int i = 0; i < 5 + reps; ++i) {
        glBeginQuery(GL_TIME_ELAPSED, q);
        body();
        glEndQuery(GL_TIME_ELAPSED);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        if (i >= 5) t.push_back(ns / 1000.0);
    }
    glDeleteQueries(1, &q);
    return median(t);
}

GLuint make_texture(int w, int h) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}
GLuint make_fbo(GLuint tex) {
    GLuint f;
    glGenFramebuffers(1, &f);
    glBindFramebuffer(GL_FRAMEBUFFER, f);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::printf("fbo incomplete\n");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return f;
}
GLuint program(const char* fs) {
    const char* vs = R"(#version 330 core
out vec2 uv;
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    uv = vec2(p.x, p.y);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
})";
    auto sh = [](GLenum type, const char* src) {
        GLuint s = glCreateShader(type);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        GLint ok;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[2000];
            glGetShaderInfoLog(s, 2000, nullptr, log);
            std::printf("shader: %s\n", log);
        }
        return s;
    };
    GLuint p = glCreateProgram();
    glAttachShader(p, sh(GL_VERTEX_SHADER, vs));
    glAttachShader(p, sh(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    return p;
}

GLuint vao, prog_tex, prog_tbo, screen_tex, screen_fbo;
void draw_texture(GLuint tex, int vw, int vh, GLuint fbo, GLenum filter) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, vw, vh);
    glUseProgram(prog_tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glBindVertexArray(vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}
void blit(GLuint src_fbo, int sw, int sh, GLuint dst_fbo, int dw, int dh, GLenum filter) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, src_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst_fbo);
    glBlitFramebuffer(0, 0, sw, sh, 0, 0, dw, dh, GL_COLOR_BUFFER_BIT, filter);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

// Reads texture `fbo` (w x h) and counts pixels differing from frame `frame`'s values.
long mismatches(GLuint fbo, int w, int h, int frame, int step = 1) {
    std::vector<unsigned> px(std::size_t(w) * h);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    long bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (px[std::size_t(y) * w + x] != host_value(x * step, y * step, frame)) ++bad;
    return bad;
}

void external_memory(cudaStream_t stream) {
    std::printf("\n== external memory: CUDA VMM allocation exported as an fd, imported by GL ==\n");
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran = 0;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    const size_t bytes = (size_t(W) * H * 4 + gran - 1) / gran * gran;
    CUmemGenericAllocationHandle handle;
    CU(cuMemCreate(&handle, bytes, &prop, 0));
    CUdeviceptr ptr;
    CU(cuMemAddressReserve(&ptr, bytes, 0, 0, 0));
    CU(cuMemMap(ptr, bytes, 0, handle, 0));
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(ptr, bytes, &access, 1));
    std::printf("allocated %zu bytes (granularity %zu)\n", bytes, gran);

    auto import = [&](const char* what) -> GLuint {
        int fd = -1;
        CUresult r = cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        if (r != CUDA_SUCCESS) {
            std::printf("%s: export failed %d\n", what, int(r));
            return 0;
        }
        GLuint mem = 0;
        glCreateMemoryObjectsEXT(1, &mem);
        glImportMemoryFdEXT(mem, bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
        std::printf("%s: import fd %d -> memory object %u, glGetError 0x%x\n", what, fd, mem, glGetError());
        return mem;
    };

    const dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
    unsigned* pixels = reinterpret_cast<unsigned*>(ptr);

    // (a) a linear-tiled texture on the imported memory
    GLuint mem_tex = import("texture");
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_TILING_EXT, GL_LINEAR_TILING_EXT);
    glTexStorageMem2DEXT(GL_TEXTURE_2D, 1, GL_RGBA8, W, H, mem_tex, 0);
    std::printf("glTexStorageMem2DEXT (linear tiling): glGetError 0x%x\n", glGetError());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    GLuint tex_fbo = make_fbo(tex);
    GLuint big_tex = make_texture(W, H), big_fbo = make_fbo(big_tex);

    // Correctness: CUDA writes frame f, CPU waits for CUDA, GL samples it (1:1 draw) -> must be frame f.
    for (int f = 1; f <= 4; ++f) {
        paint_linear<<<grid, block, 0, stream>>>(pixels, W, H, f);
        CK(cudaStreamSynchronize(stream));
        draw_texture(tex, W, H, big_fbo, GL_NEAREST);
        const long bad_draw = mismatches(big_fbo, W, H, f);
        const long bad_read = mismatches(tex_fbo, W, H, f);
        std::printf("frame %d: sampled-draw mismatches %ld, direct read mismatches %ld (of %d)\n", f, bad_draw,
                    bad_read, W * H);
    }
    // The same, with GL having drawn the old frame right before CUDA writes (fence wait before the kernel).
    {
        long bad = 0;
        for (int f = 5; f <= 40; ++f) {
            draw_texture(tex, SW, SH, screen_fbo, GL_LINEAR);
            GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
            glFlush();
            glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, ~0ull);
            glDeleteSync(fence);
            paint_linear<<<grid, block, 0, stream>>>(pixels, W, H, f);
            CK(cudaStreamSynchronize(stream));
            draw_texture(tex, W / 2, H / 2, big_fbo, GL_NEAREST);
            bad += mismatches(big_fbo, W / 2, H / 2, f, 2);
        }
        std::printf("36 alternating frames, half-size nearest draws: mismatches %ld\n", bad);
    }

    std::printf("GPU time, draw of the linear-tiled 4K texture into %dx%d (linear): %.1f us\n", SW, SH,
                gl_gpu([&] { draw_texture(tex, SW, SH, screen_fbo, GL_LINEAR); }));
    std::printf("GPU time, blit of the linear-tiled 4K texture into %dx%d (linear): %.1f us\n", SW, SH,
                gl_gpu([&] { blit(tex_fbo, W, H, screen_fbo, SW, SH, GL_LINEAR); }));
    std::printf("GPU time, blit linear-tiled 4K -> optimal 4K texture 1:1: %.1f us\n",
                gl_gpu([&] { blit(tex_fbo, W, H, big_fbo, W, H, GL_NEAREST); }));

    // Whole frames: wait for GL to release the memory, kernel, wait for CUDA, draw.
    GLsync last = nullptr;
    auto frame_with = [&](const std::function<void()>& present) {
        static int f = 0;
        if (last) {
            glClientWaitSync(last, GL_SYNC_FLUSH_COMMANDS_BIT, ~0ull);
            glDeleteSync(last);
        }
        paint_linear<<<grid, block, 0, stream>>>(pixels, W, H, ++f);
        cudaStreamSynchronize(stream);
        present();
        last = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
    };
    auto report = [&](const char* name, const std::function<void()>& present) {
        const double s = streamed([&] { frame_with(present); });
        const double a = alone([&] { frame_with(present); });
        std::printf("frame (fence wait, kernel, stream sync, %s): streamed %.1f us, alone %.1f us\n", name, s, a);
    };
    report("draw 4K->1080p linear", [&] { draw_texture(tex, SW, SH, screen_fbo, GL_LINEAR); });
    report("blit 4K->1080p linear", [&] { blit(tex_fbo, W, H, screen_fbo, SW, SH, GL_LINEAR); });
    report("no GL work", [&] {});
    // Event-based CUDA wait instead of a stream sync.
    cudaEvent_t done;
    CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming | cudaEventBlockingSync));
    const double ev = streamed([&] {
        if (last) {
            glClientWaitSync(last, GL_SYNC_FLUSH_COMMANDS_BIT, ~0ull);
            glDeleteSync(last);
        }
        paint_linear<<<grid, block, 0, stream>>>(pixels, W, H, 7);
        cudaEventRecord(done, stream);
        cudaEventSynchronize(done);
        draw_texture(tex, SW, SH, screen_fbo, GL_LINEAR);
        last = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();
    });
    std::printf("frame with a blocking-sync event instead: streamed %.1f us\n", ev);

    // (b) the same memory as a texture buffer, sampled with texelFetch
    GLuint mem_buf = import("buffer");
    GLuint buf = 0, tbo = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_TEXTURE_BUFFER, buf);
    glBufferStorageMemEXT(GL_TEXTURE_BUFFER, bytes, mem_buf, 0);
    std::printf("glBufferStorageMemEXT: glGetError 0x%x\n", glGetError());
    glGenTextures(1, &tbo);
    glBindTexture(GL_TEXTURE_BUFFER, tbo);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, buf);
    GLint max_tbo = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_tbo);
    std::printf("texture buffer: glGetError 0x%x, max texels %d\n", glGetError(), max_tbo);
    auto draw_tbo = [&](int vw, int vh, GLuint fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, vw, vh);
        glUseProgram(prog_tbo);
        glUniform2i(glGetUniformLocation(prog_tbo, "size"), W, H);
        glUniform2f(glGetUniformLocation(prog_tbo, "scale"), float(W) / vw, float(H) / vh);
        glBindTexture(GL_TEXTURE_BUFFER, tbo);
        glBindVertexArray(vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    };
    paint_linear<<<grid, block, 0, stream>>>(pixels, W, H, 9);
    CK(cudaStreamSynchronize(stream));
    draw_tbo(W, H, big_fbo);
    std::printf("texture buffer 1:1 draw mismatches %ld\n", mismatches(big_fbo, W, H, 9));
    std::printf("GPU time, texture-buffer draw into %dx%d: %.1f us\n", SW, SH,
                gl_gpu([&] { draw_tbo(SW, SH, screen_fbo); }));
    report("texture-buffer draw 4K->1080p", [&] { draw_tbo(SW, SH, screen_fbo); });
}

// GPU-side hand-over: CUDA->GL through an EGL sync made from a CUDA event (EGL_NV_cuda_event),
// GL->CUDA through a CUDA event made from an EGL fence (cuEventCreateFromEGLSync).
void sync_probe(cudaStream_t stream) {
    EGLDisplay dpy = eglGetCurrentDisplay();
    const char* ext = eglQueryString(dpy, EGL_EXTENSIONS);
    cuEventCreateFromEGLSync_ =
        reinterpret_cast<EventFromEglSync>(dlsym(dlopen("libcuda.so.1", RTLD_NOW), "cuEventCreateFromEGLSync"));
    std::printf("cuEventCreateFromEGLSync in libcuda: %s\n", cuEventCreateFromEGLSync_ ? "yes" : "no");
    std::printf("EGL display extensions: %s\n", ext ? ext : "?");
    unsigned* scratch = nullptr;
    CK(cudaMalloc(&scratch, 4096));
    GLuint tiny_tex = make_texture(4, 4), tiny_fbo = make_fbo(tiny_tex);
    auto tiny_cuda = [&] { paint_linear<<<1, 32, 0, stream>>>(scratch, 32, 1, 0); };
    auto tiny_gl = [&] {
        glBindFramebuffer(GL_FRAMEBUFFER, tiny_fbo);
        glViewport(0, 0, 4, 4);
        glClear(GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    };
    std::printf("tiny CUDA + stream sync: %.1f us\n", streamed([&] {
                    tiny_cuda();
                    cudaStreamSynchronize(stream);
                }));
    std::printf("tiny GL + glFinish: %.1f us\n", streamed([&] {
                    tiny_gl();
                    glFinish();
                }));
    std::printf("tiny CUDA + sync, tiny GL + glFinish (CPU hand-over both ways): %.1f us\n", streamed([&] {
                    tiny_cuda();
                    cudaStreamSynchronize(stream);
                    tiny_gl();
                    glFinish();
                }));
    std::printf("tiny CUDA, tiny GL, no sync: %.1f us\n", streamed([&] {
                    tiny_cuda();
                    tiny_gl();
                    glFlush();
                }));
    std::printf("tiny CUDA + sync, tiny GL, no GL wait: %.1f us\n", streamed([&] {
                    tiny_cuda();
                    cudaStreamSynchronize(stream);
                    tiny_gl();
                    glFlush();
                }));
    std::printf("tiny CUDA no wait, tiny GL + glFinish: %.1f us\n", streamed([&] {
                    tiny_cuda();
                    tiny_gl();
                    glFinish();
                }));

    // Does context priority shorten the hand-over? A high-priority GL context and CUDA stream.
    {
        int least = 0, greatest = 0;
        cudaDeviceGetStreamPriorityRange(&least, &greatest);
        cudaStream_t hi;
        CK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
        auto tiny_cuda_hi = [&] { paint_linear<<<1, 32, 0, hi>>>(scratch, 32, 1, 0); };
        std::printf("high-priority CUDA stream (%d): tiny CUDA + sync, tiny GL + glFinish: %.1f us\n", greatest,
                    streamed([&] {
                        tiny_cuda_hi();
                        cudaStreamSynchronize(hi);
                        tiny_gl();
                        glFinish();
                    }));
        EGLConfig config{};
        EGLint configs = 0;
        const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                         EGL_NONE};
        eglChooseConfig(dpy, config_attribs, &config, 1, &configs);
        for (EGLint level : {0x3101 /*HIGH*/, 0x3103 /*LOW*/}) {
            const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                          3,
                                          EGL_CONTEXT_MINOR_VERSION,
                                          3,
                                          EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                          EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                          0x3100,
                                          level,
                                          EGL_NONE};
            EGLContext old = eglGetCurrentContext();
            EGLContext c = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
            if (c == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
                std::printf("context with priority 0x%x: failed 0x%x\n", level, eglGetError());
                continue;
            }
            EGLint got = 0;
            eglQueryContext(dpy, c, 0x3100, &got);
            GLuint t = make_texture(4, 4), fb = make_fbo(t);
            auto gl = [&] {
                glBindFramebuffer(GL_FRAMEBUFFER, fb);
                glViewport(0, 0, 4, 4);
                glClear(GL_COLOR_BUFFER_BIT);
                glBindFramebuffer(GL_FRAMEBUFFER, 0);
            };
            std::printf("GL context priority asked 0x%x got 0x%x: tiny GL + glFinish %.1f us; hand-over both ways %.1f "
                        "us (hi CUDA stream %.1f us)\n",
                        level, got, streamed([&] {
                            gl();
                            glFinish();
                        }),
                        streamed([&] {
                            tiny_cuda();
                            cudaStreamSynchronize(stream);
                            gl();
                            glFinish();
                        }),
                        streamed([&] {
                            tiny_cuda_hi();
                            cudaStreamSynchronize(hi);
                            gl();
                            glFinish();
                        }));
            eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, old);
            eglDestroyContext(dpy, c);
        }
    }
    // Hand-over with the CPU spinning vs yielding makes no GPU difference, but check the blocking mode.
    std::printf("hand-over, 4 CUDA+GL pairs per wait (batched): %.1f us per pair\n", streamed([&] {
                                                                                         for (int k = 0; k < 4; ++k)
                                                                                             tiny_cuda();
                                                                                         cudaStreamSynchronize(stream);
                                                                                         for (int k = 0; k < 4; ++k)
                                                                                             tiny_gl();
                                                                                         glFinish();
                                                                                     }) / 4);
    const EGLAttrib EGL_CUDA_EVENT_HANDLE_NV_ = 0x323B;
    const EGLenum EGL_SYNC_CUDA_EVENT_NV_ = 0x323C;
    cudaEvent_t ev;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    CK(cudaEventRecord(ev, stream));
    const EGLAttrib attrs[] = {EGL_CUDA_EVENT_HANDLE_NV_, reinterpret_cast<EGLAttrib>(ev), EGL_NONE};
    EGLSync from_cuda = eglCreateSync(dpy, EGL_SYNC_CUDA_EVENT_NV_, attrs);
    std::printf("eglCreateSync(EGL_SYNC_CUDA_EVENT_NV): %s (error 0x%x)\n", from_cuda ? "ok" : "failed", eglGetError());
    if (from_cuda) eglDestroySync(dpy, from_cuda);
    EGLSync fence = eglCreateSync(dpy, EGL_SYNC_FENCE, nullptr);
    glFlush();
    CUevent from_gl = nullptr;
    CUresult r = !fence                      ? CUDA_ERROR_INVALID_VALUE
                 : cuEventCreateFromEGLSync_ ? cuEventCreateFromEGLSync_(&from_gl, fence, CU_EVENT_DEFAULT)
                                             : CUDA_ERROR_NOT_FOUND;
    std::printf("eglCreateSync(EGL_SYNC_FENCE): %s; cuEventCreateFromEGLSync: %d\n", fence ? "ok" : "failed", int(r));
    if (from_gl) cuEventDestroy(from_gl);
    if (fence) eglDestroySync(dpy, fence);

    if (eglWaitSync) {
        // CUDA->GL on the GPU: GL waits for the CUDA event, the CPU never does.
        auto gpu_cuda_to_gl = [&](const std::function<void()>& gl_work) {
            tiny_cuda();
            cudaEventRecord(ev, stream);
            EGLSync s = eglCreateSync(dpy, EGL_SYNC_CUDA_EVENT_NV_, attrs);
            if (s) {
                eglWaitSync(dpy, s, 0);
                eglDestroySync(dpy, s);
            }
            gl_work();
            glFlush();
        };
        std::printf("tiny CUDA -> (GPU wait) tiny GL, CPU never waits: %.1f us\n",
                    streamed([&] { gpu_cuda_to_gl(tiny_gl); }));
        // and GL->CUDA on the GPU too, if CUDA can wait for an EGL fence
        std::printf("tiny CUDA -> tiny GL -> (GPU wait) next CUDA: ");
        const double both = streamed([&] {
            gpu_cuda_to_gl(tiny_gl);
            EGLSync f = eglCreateSync(dpy, EGL_SYNC_FENCE, nullptr);
            glFlush();
            CUevent e = nullptr;
            if (f && cuEventCreateFromEGLSync_ && cuEventCreateFromEGLSync_(&e, f, CU_EVENT_DEFAULT) == CUDA_SUCCESS) {
                cuStreamWaitEvent(stream, e, 0);
                cuEventDestroy(e);
            } else if (f) {
                eglClientWaitSync(dpy, f, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER);
            }
            if (f) eglDestroySync(dpy, f);
        });
        std::printf("%.1f us\n", both);
    }
}

// Double buffering at 7680x4320: does a frame that draws the texture painted one frame earlier, while
// the kernel paints the other, hide the kernel behind the hand-over? `present_probe double`.
void double_probe(cudaStream_t stream) {
    constexpr int BW = 7680, BH = 4320;
    std::printf("\n== double buffering, %dx%d canvas drawn into %dx%d ==\n", BW, BH, SW, SH);
    GLuint tex[2] = {make_texture(BW, BH), make_texture(BW, BH)};
    cudaGraphicsResource* res[2] = {};
    for (int i = 0; i < 2; ++i)
        CK(cudaGraphicsGLRegisterImage(&res[i], tex[i], GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore));
    const dim3 block(32, 8), grid((BW + 31) / 32, (BH + 7) / 8);
    int frame = 0;
    auto paint = [&](int i, int kernels) {
        CK(cudaGraphicsMapResources(1, &res[i], stream));
        cudaArray_t array;
        CK(cudaGraphicsSubResourceGetMappedArray(&array, res[i], 0, 0));
        cudaResourceDesc rd{};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = array;
        cudaSurfaceObject_t surf;
        CK(cudaCreateSurfaceObject(&surf, &rd));
        for (int k = 0; k < kernels; ++k) paint_surface<<<grid, block, 0, stream>>>(surf, BW, BH, frame);
        CK(cudaDestroySurfaceObject(surf));
        CK(cudaGraphicsUnmapResources(1, &res[i], stream));
    };
    auto draw = [&](int i) { draw_texture(tex[i], SW, SH, screen_fbo, GL_LINEAR), glFlush(); };
    for (int kernels : {0, 1, 2}) {
        const double single = streamed([&] { paint(0, kernels), draw(0), ++frame; });
        const double twice = streamed([&] { paint(frame & 1, kernels), draw((frame + 1) & 1), ++frame; });
        const double draw_first = streamed([&] { draw((frame + 1) & 1), paint(frame & 1, kernels), ++frame; });
        std::printf("%d kernels: single texture %.1f us/frame, double (paints one, draws the other) %.1f, the same "
                    "drawing first %.1f\n",
                    kernels, single, twice, draw_first);
    }
    // What the double-buffered frames show: frame f's pattern in the texture drawn at f + 1.
    paint(0, 1);
    GLuint fbo = make_fbo(tex[0]);
    std::printf("texture 0 after a paint of frame %d: %ld mismatches in its first %dx%d\n", frame,
                mismatches(fbo, BW / 8, BH / 8, frame), BW / 8, BH / 8);
    for (auto* r : res) CK(cudaGraphicsUnregisterResource(r));
}

int main(int argc, char** argv) {
    kc::EglHeadlessContext context(0);
    std::printf("%s\n", context.description().c_str());
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    std::printf("GL extensions of interest:");
    for (int i = 0; i < n; ++i) {
        const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i));
        if (strstr(e, "memory_object") || strstr(e, "semaphore") || strstr(e, "copy_image") || strstr(e, "interop") ||
            strstr(e, "NV_draw_texture") || strstr(e, "vulkan"))
            std::printf(" %s", e);
    }
    std::printf("\n");
    CK(cudaSetDevice(0));
    cudaStream_t stream;
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    glGenVertexArrays(1, &vao);
    if (argc > 1 && std::string(argv[1]) == "sync") {
        sync_probe(stream);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "double") {
        prog_tex = program(R"(#version 330 core
in vec2 uv; out vec4 c; uniform sampler2D image;
void main() { c = texture(image, uv); })");
        screen_tex = make_texture(SW, SH);
        screen_fbo = make_fbo(screen_tex);
        double_probe(stream);
        return 0;
    }
    prog_tex = program(R"(#version 330 core
in vec2 uv; out vec4 c; uniform sampler2D image;
void main() { c = texture(image, uv); })");
    // The real texture-buffer shader (needs the viewport size to scale).
    prog_tbo = program(R"(#version 330 core
out vec4 c; uniform samplerBuffer image; uniform ivec2 size; uniform vec2 scale;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy * scale);
    c = texelFetch(image, p.y * size.x + p.x);
})");
    screen_tex = make_texture(SW, SH);
    screen_fbo = make_fbo(screen_tex);
    GLuint tex4k = make_texture(W, H), fbo4k = make_fbo(tex4k);
    GLuint tex1080 = make_texture(SW, SH), fbo1080 = make_fbo(tex1080);
    GLuint big_tex = make_texture(W, H), big_fbo = make_fbo(big_tex);

    std::printf("\n== GL alone (GPU time by timer query; wall time of draw+glFinish) ==\n");
    struct Case {
        const char* name;
        std::function<void()> f;
    } cases[] = {
        {"draw 4K->1080p linear", [&] { draw_texture(tex4k, SW, SH, screen_fbo, GL_LINEAR); }},
        {"draw 4K->1080p nearest", [&] { draw_texture(tex4k, SW, SH, screen_fbo, GL_NEAREST); }},
        {"draw 1080p->1080p nearest", [&] { draw_texture(tex1080, SW, SH, screen_fbo, GL_NEAREST); }},
        {"draw 4K->4K nearest", [&] { draw_texture(tex4k, W, H, big_fbo, GL_NEAREST); }},
        {"draw 4K->960x540 linear", [&] { draw_texture(tex4k, SW / 2, SH / 2, screen_fbo, GL_LINEAR); }},
        {"blit 4K->1080p linear", [&] { blit(fbo4k, W, H, screen_fbo, SW, SH, GL_LINEAR); }},
        {"blit 1080p->1080p nearest", [&] { blit(fbo1080, SW, SH, screen_fbo, SW, SH, GL_NEAREST); }},
        {"blit 4K->4K nearest", [&] { blit(fbo4k, W, H, big_fbo, W, H, GL_NEAREST); }},
        {"copy image 4K->4K",
         [&] {
             if (glCopyImageSubData)
                 glCopyImageSubData(tex4k, GL_TEXTURE_2D, 0, 0, 0, 0, big_tex, GL_TEXTURE_2D, 0, 0, 0, 0, W, H, 1);
         }},
        {"clear 1080p",
         [&] {
             glBindFramebuffer(GL_FRAMEBUFFER, screen_fbo);
             glViewport(0, 0, SW, SH);
             glClear(GL_COLOR_BUFFER_BIT);
             glBindFramebuffer(GL_FRAMEBUFFER, 0);
         }},
    };
    for (auto& c : cases)
        std::printf("%-28s GPU %7.1f us   alone %7.1f us   streamed %7.1f us\n", c.name, gl_gpu(c.f), alone(c.f),
                    streamed(c.f));
    std::printf("glFinish with nothing queued: alone %.1f us\n", alone([] {}));

    std::printf("\n== CUDA alone, and CUDA and GL taking turns without interop ==\n");
    unsigned* scratch = nullptr;
    CK(cudaMalloc(&scratch, size_t(W) * H * 4));
    const dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
    auto kernel = [&] { paint_linear<<<grid, block, 0, stream>>>(scratch, W, H, 1); };
    std::printf("kernel + stream sync: alone %.1f us, streamed(no sync) %.1f us\n", alone([&] { kernel(); }),
                streamed([&] { kernel(); }));
    std::printf("kernel, stream sync, clear 1080p, glFinish: streamed %.1f us\n", streamed([&] {
                    kernel();
                    cudaStreamSynchronize(stream);
                    cases[9].f();
                    glFinish();
                }));
    std::printf("kernel, stream sync, blit 1080p, glFinish: streamed %.1f us\n", streamed([&] {
                    kernel();
                    cudaStreamSynchronize(stream);
                    cases[6].f();
                    glFinish();
                }));
    GLsync last = nullptr;
    std::printf("fence wait, kernel, stream sync, blit 1080p, fence: streamed %.1f us\n", streamed([&] {
                    if (last) glClientWaitSync(last, GL_SYNC_FLUSH_COMMANDS_BIT, ~0ull), glDeleteSync(last);
                    kernel();
                    cudaStreamSynchronize(stream);
                    cases[6].f();
                    last = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
                    glFlush();
                }));
    std::printf("kernel and blit 1080p with no sync at all: streamed %.1f us\n", streamed([&] {
                    kernel();
                    cases[6].f();
                    glFlush();
                }));

    std::printf("\n== graphics interop (registered 4K texture, surface writes) ==\n");
    cudaGraphicsResource* res = nullptr;
    CK(cudaGraphicsGLRegisterImage(&res, tex4k, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore));
    auto interop_frame = [&](bool draw) {
        CK(cudaGraphicsMapResources(1, &res, stream));
        cudaArray_t array;
        CK(cudaGraphicsSubResourceGetMappedArray(&array, res, 0, 0));
        cudaResourceDesc rd{};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = array;
        cudaSurfaceObject_t surf;
        CK(cudaCreateSurfaceObject(&surf, &rd));
        paint_surface<<<grid, block, 0, stream>>>(surf, W, H, 2);
        CK(cudaDestroySurfaceObject(surf));
        CK(cudaGraphicsUnmapResources(1, &res, stream));
        if (draw) draw_texture(tex4k, SW, SH, screen_fbo, GL_LINEAR), glFlush();
    };
    std::printf("map, surface kernel, unmap: streamed %.1f us; + draw 4K->1080p: streamed %.1f us, alone %.1f us\n",
                streamed([&] { interop_frame(false); }), streamed([&] { interop_frame(true); }),
                alone([&] { interop_frame(true); }));
    std::printf("map+unmap alone: streamed %.1f us\n", streamed([&] {
                    CK(cudaGraphicsMapResources(1, &res, stream));
                    CK(cudaGraphicsUnmapResources(1, &res, stream));
                }));
    CK(cudaGraphicsUnregisterResource(res));

    external_memory(stream);
    std::printf("done\n");
    return 0;
}
