#include "app/ab/ab_painter.h"

#include "gpu/registry.h"
#include "gpu/user_kernel.h"

namespace kc {

namespace {
// The diff reads both canvases back, which waits for the GPU: a few times a second is enough to
// follow an edit, and keeps the frames between free of the wait.
constexpr int kFramesBetweenDiffs = 8;
} // namespace

void AbPainter::start(const FramePainter& a, const Canvas& a_canvas) {
    const int gpu = a.cuda_device();
    painter_ = std::make_unique<FramePainter>(a.backend(), gpu >= 0 ? std::optional<int>(gpu) : std::nullopt);
    canvas_ = std::make_unique<Canvas>(a_canvas.width(), a_canvas.height());
    marks_ = std::make_unique<Canvas>(a_canvas.width(), a_canvas.height());
}

void AbPainter::paint(AbState& ab, const PaintJob& a_job, const FramePainter& a, const Canvas& a_canvas,
                      const SourceImages& sources, std::chrono::milliseconds wait) {
    if (!painter_) start(a, a_canvas);
    if (painter_->backend() != a.backend()) painter_->set_backend(a.backend()); // B follows A's choice
    if (painter_->present() != a.present()) painter_->set_present(a.present());
    if (canvas_->width() != a_canvas.width() || canvas_->height() != a_canvas.height()) {
        painter_->finish_painting(*canvas_);
        canvas_->resize(a_canvas.width(), a_canvas.height());
        marks_->resize(a_canvas.width(), a_canvas.height());
        ab.readout.diff = {};
    }
    const PaintJob b = side_b_job(ab.split, a_job);
    ab.b_resolved = resolve_launch(b, painter_->limits());
    compile_if_changed(ab, b);
    painter_->queue_after(a); // on a GPU, B's kernel runs after A's: neither's time holds the other's
    const std::optional<std::string> refused =
        painter_->paint_responsive(b, ab.b_resolved, *canvas_, &sources, /*both_variants=*/false, wait);
    ab.readout.b_refusal = refused.value_or("");
    painter_->collect_timings();
    AbReadout& r = ab.readout;
    r.a = side_time(a.times().kernel), r.b = side_time(painter_->times().kernel);
    r.ratio = ab_ratio(r.a, r.b);
    r.emulator = a.backend() == Backend::Cpu;
}

// B's kernel (user_kernel) compiles when its text, mode or backend changed; a failure is said
// once, not retried every frame.
void AbPainter::compile_if_changed(AbState& ab, const PaintJob& b) {
    if (!op_registry()[b.op].user_code) return;
    const std::string& source =
        ab.split.b_kernel_source.empty() ? std::string(default_starter().source) : ab.split.b_kernel_source;
    const auto wanted = std::tuple{source, ab.split.b_kernel_mode, painter_->backend()};
    if (compiled_ == wanted) return;
    const KernelCompile c = painter_->compile_user_kernel(source, "side-b.cu", ab.split.b_kernel_mode);
    compiled_ = wanted;
    ab.readout.b_compile = c.ok ? "" : c.log;
}

void AbPainter::compare(AbState& ab, const Canvas& a_canvas) {
    if (!ab.split.diff || !painter_) {
        ab.readout.diff = {};
        return;
    }
    if (ab.readout.diff.compared > 0 && --frames_to_compare_ > 0) return;
    frames_to_compare_ = kFramesBetweenDiffs;
    ab.readout.diff = diff_pixels(a_canvas.read_texture(), canvas_->read_texture());
    marks_->upload_from_host(diff_marks(ab.readout.diff).data());
}

void AbPainter::finish_painting() {
    if (painter_) painter_->finish_painting(*canvas_);
}

} // namespace kc
