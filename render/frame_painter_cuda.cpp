// FramePainter's CUDA side (frame_painter_cuda.h), built when CMake finds CUDA.
#include "render/frame_painter_cuda.h"

#include <exception>
#include <memory>

#include "render/cuda_gl_buffer.h"
#include "render/cuda_launches.h"
#include "render/present_interop.h"
#include "render/present_staged.h"
#include "render/writer_record.h"

namespace kc {

// The launches every CUDA path shares and the paths, made on first use.
struct PainterCuda {
    CudaLaunches launches;
    std::unique_ptr<PresentPath> pixel_buffer, texture, surface, direct, staged;
    const PresentPath* current = nullptr; // the last frame's
    StageTimes stale;                     // what collect() drops

    explicit PainterCuda(int device) : launches(device) {}
    PresentPath& path(Backend backend, Present present) {
        PresentPath& p = make_path(backend, present);
        current = &p;
        return p;
    }
    PresentPath& make_path(Backend backend, Present present) {
        const cudaStream_t s = launches.stream();
        if (backend == Backend::CudaStaged) return made(staged, [&] { return std::make_unique<StagedPresent>(s); });
        if (present == Present::PixelBuffer)
            return made(pixel_buffer, [&] { return std::make_unique<PixelBufferPresent>(s); });
        if (present == Present::Texture)
            return made(texture, [&] { return std::make_unique<TexturePresent>(s, Present::Texture); });
        if (present == Present::Direct)
            return made(direct, [&] { return std::make_unique<TexturePresent>(s, Present::Direct); });
        return made(surface, [&] { return std::make_unique<TexturePresent>(s, Present::Surface); });
    }
    template <class Make>
    static PresentPath& made(std::unique_ptr<PresentPath>& p, Make make) {
        if (!p) p = make();
        return *p;
    }
    // A path's samples count only while the frames take it: the painter cleared the times when
    // the present or the route changed, and what was still in flight then (another path's copy,
    // the copy of a frame before a direct one) would show as a stage the frames no longer have.
    void collect(StageTimes& times, OpOutputs& outputs, bool wait, FrameRoute route) {
        launches.collect(times, outputs, wait);
        for (auto* p : {&pixel_buffer, &texture, &surface, &direct, &staged})
            if (*p) (*p)->collect_timings(p->get() == current && route != FrameRoute::Direct ? times : stale, wait);
        stale.clear();
    }
};

void PainterCudaDeleter::operator()(PainterCuda* cuda) const { delete cuda; }

namespace {

// One frame's kernels on the GPU, into the target the present path gives.
class CudaKernels : public FrameKernels {
public:
    CudaKernels(CudaLaunches& launches, const CudaFrame& frame, bool writes_texture)
        : launches_(launches), frame_(frame), writes_texture_(writes_texture) {}
    std::optional<std::string> run(const PaintTarget& target) override {
        launches_.launch(frame_, target);
        return std::nullopt;
    }
    bool writes_texture() const override { return writes_texture_; }

private:
    CudaLaunches& launches_;
    const CudaFrame& frame_;
    bool writes_texture_;
};

} // namespace

namespace painter_cuda {

Started start(std::optional<int> gpu) {
    Started started;
    if (auto why = cuda_unavailable_reason()) {
        started.interop_why_not = started.cuda_why_not = *why;
        return started;
    }
    // CUDA must run on the GPU that owns the GL context, or interop fails (or copies).
    const GlGpus gl = cuda_devices_for_current_gl();
    started.gl_gpus = gl.devices;
    try {
        const GpuPairing pairing = pair_cuda_with_gl(gpu, gl, cuda_gpus());
        KC_CUDA_CHECK_THROW(cudaSetDevice(pairing.cuda_device));
        started.cuda.reset(new PainterCuda(pairing.cuda_device));
        started.interop_why_not =
            pairing.interop ? gl_buffer_registration_error().value_or("") : pairing.interop_why_not;
    } catch (const std::exception& e) {
        started.interop_why_not = started.cuda_why_not = e.what();
    }
    return started;
}

const DeviceInfo& device_info(const PainterCuda& cuda) { return cuda.launches.info(); }
double copy_gbs(const PainterCuda& cuda) { return cuda.launches.copy_gbs(); }

KernelCompile compile_user_kernel(PainterCuda& cuda, std::string_view source, std::string_view file_name,
                                  KernelMode mode) {
    return cuda.launches.compile_user_kernel(source, file_name, mode);
}
bool has_user_kernel(const PainterCuda& cuda) { return cuda.launches.user_kernel().kernel() != nullptr; }
const std::string& user_kernel_source(const PainterCuda& cuda) { return cuda.launches.user_kernel().source(); }
std::optional<std::string> user_kernel_refusal(const PainterCuda& cuda, const Dim3& block) {
    return cuda.launches.user_kernel().launch_refusal(block);
}

std::optional<std::string> attach_sources(PainterCuda& cuda, const SourceImages& sources, std::size_t pixels,
                                          PaintJob& run) {
    return cuda.launches.attach_sources(sources, pixels, run);
}

std::optional<std::string> paint(PainterCuda& cuda, const Frame& frame, Canvas& canvas, PresentTimers& timers) {
    return faults_lose_the_context([&] {
        const CudaFrame launch{frame.job,     frame.resolved,       frame.both_variants,
                               frame.writers, frame.record_writers, frame.record_timeline};
        CudaKernels kernels(cuda.launches, launch, frame.writes_texture);
        return cuda.path(frame.backend, frame.present).present(kernels, canvas, timers);
    });
}

void leave_frames(PainterCuda& cuda) { cuda.current = nullptr; }

void queue_after(PainterCuda& cuda, const PainterCuda& before) {
    faults_lose_the_context([&] {
        cudaEvent_t done{};
        KC_CUDA_CHECK_THROW(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
        const cudaError_t recorded = cudaEventRecord(done, before.launches.stream());
        const cudaError_t waited =
            recorded == cudaSuccess ? cudaStreamWaitEvent(cuda.launches.stream(), done, 0) : recorded;
        KC_CUDA_CHECK_PRINT(cudaEventDestroy(done)); // released once the wait has passed it
        KC_CUDA_CHECK_THROW(waited);
    });
}

void collect(PainterCuda& cuda, StageTimes& times, OpOutputs& outputs, bool wait, FrameRoute route) {
    faults_lose_the_context([&] { cuda.collect(times, outputs, wait, route); });
}

std::optional<unsigned> sm_of_pixel(PainterCuda& cuda, WriterRecord& writers, int x, int y) {
    return faults_lose_the_context([&] { return writers.read_cuda(x, y, cuda.launches.stream()); });
}

std::optional<BlockTimeline> take_timeline(PainterCuda& cuda, bool wait) {
    return faults_lose_the_context([&] { return cuda.launches.take_timeline(wait); });
}

std::optional<unsigned> user_kernel_block_sm(PainterCuda& cuda, unsigned word) {
    return faults_lose_the_context([&] { return cuda.launches.user_kernel_block_sm(word); });
}

} // namespace painter_cuda
} // namespace kc
