#include "app/cli/lesson_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "app/cli/options.h"
#include "app/cli/record.h"
#include "app/core/data_dir.h"
#include "app/lesson/lesson_check.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/atomic_file.h"
#include "render/io/image_io.h"
#include "render/io/quoted.h"
#include "render/io/source_images.h"
#ifdef KC_HAVE_CUDA
#include "gpu/cuda_device.h"
#endif

namespace kc {

namespace {

// Paints lesson steps headless: on a CUDA backend through the painter on an EGL context (and
// times kernels there), else with the CPU grid emulator, which needs no GL and times nothing.
class LessonRenderer {
public:
    LessonRenderer(std::optional<Backend> backend, std::optional<int> gpu) {
        if (backend == Backend::Cpu) return;
#ifdef KC_HAVE_CUDA
        if (cuda_unavailable_reason()) return;
        try {
            context_ = std::make_unique<EglHeadlessContext>(gpu.value_or(0));
            painter_ = std::make_unique<FramePainter>(backend, gpu);
        } catch (const std::exception&) {
            painter_.reset(), context_.reset(); // no headless GL here: the CPU emulator paints
        }
        if (painter_ && painter_->backend() == Backend::Cpu) painter_.reset(), context_.reset();
#else
        (void)gpu;
#endif
    }
    std::string backend() const { return painter_ ? std::string(backend_name(painter_->backend())) : "cpu"; }

    std::optional<std::string> paint(const Preset& p, std::vector<Pixel>& pixels) {
        PaintJob job = p.job;
        SourceImages sources;
        if (auto e = load_images(p, job, sources)) return e;
        if (!painter_) {
            Preset fitted = p;
            fitted.job.params.src_a = sources.fitted(0), fitted.job.params.src_b = sources.fitted(1);
            return cpu_paint_(fitted, pixels);
        }
        if (auto e = compile(p)) return e;
        Canvas canvas(job.params.width, job.params.height);
        if (auto e = frames(job, canvas, sources, 1)) return e;
        pixels = canvas.read_texture();
        return std::nullopt;
    }

    // The median kernel time over 50 frames after 5 unmeasured ones; nullopt on the CPU.
    std::optional<double> time(const Preset& p) {
        if (!painter_) return std::nullopt;
        PaintJob job = p.job;
        SourceImages sources;
        if (load_images(p, job, sources)) return std::nullopt;
        if (compile(p)) return std::nullopt;
        Canvas canvas(job.params.width, job.params.height);
        if (frames(job, canvas, sources, 5)) return std::nullopt;
        painter_->times().clear();
        if (frames(job, canvas, sources, 50)) return std::nullopt;
        return painter_->times().kernel.empty() ? std::nullopt : std::optional(painter_->times().kernel.median());
    }

private:
    // A step of the user's kernel compiles the preset's source (the default starter if it has
    // none) into the painter, once.
    std::optional<std::string> compile(const Preset& p) {
        if (!op_registry()[p.job.op].user_code) return std::nullopt;
        const std::string source = p.kernel_source.empty() ? std::string(default_starter().source) : p.kernel_source;
        if (source == compiled_source_ && p.kernel_mode == compiled_mode_) return std::nullopt;
        const KernelCompile k = painter_->compile_user_kernel(source, "lesson.cu", p.kernel_mode);
        if (!k.ok) return "the step's kernel does not compile:\n" + k.log;
        compiled_source_ = source, compiled_mode_ = p.kernel_mode;
        return std::nullopt;
    }

    static std::optional<std::string> load_images(const Preset& p, PaintJob& job, SourceImages& sources) {
        for (int slot = 0; slot < 2; ++slot)
            if (!p.images[slot].empty())
                if (auto e = sources.load(slot, resolve_data_file(p.images[slot], "images")))
                    return fmt::format("image {}: {}", slot ? "b" : "a", *e);
        sources.fit(job.params.width, job.params.height);
        return std::nullopt;
    }
    std::optional<std::string> frames(const PaintJob& job, Canvas& canvas, const SourceImages& sources, int n) {
        const ResolvedLaunch resolved = resolve_launch(job, painter_->limits());
        for (int f = 0; f < n; ++f) {
            if (auto e = painter_->paint(job, resolved, canvas, &sources)) return e;
            painter_->collect_timings();
        }
        glFinish();
        painter_->collect_timings(true);
        return std::nullopt;
    }

    std::unique_ptr<EglHeadlessContext> context_;
    std::unique_ptr<FramePainter> painter_;
    StepPainter cpu_paint_ = cpu_step_painter(); // without a painter
    std::string compiled_source_;
    KernelMode compiled_mode_ = KernelMode::Checked;
};

int list_lessons() {
    for (const ShippedLesson& s : shipped_lessons()) {
        Lesson l;
        if (auto e = parse_lesson(s.source, std::string(s.name), l)) {
            fmt::print("{}  (unreadable: {})\n", s.name, *e);
            continue;
        }
        fmt::print("{}  {} ({} steps)\n", l.name, l.title, l.steps.size());
    }
    return 0;
}

// One line: the why's formula lines joined by "; ".
std::string answer_line(const Answer& a) {
    std::string why = a.why;
    for (std::size_t at; (at = why.find('\n')) != std::string::npos;) why.replace(at, 1, "; ");
    return a.skipped ? "skipped: " + why : fmt::format("{}  ({})", a.text, why);
}

int check(const Lesson& lesson, LessonRenderer& renderer) {
    const auto reports = check_lesson(
        lesson, [&](const Preset& p, std::vector<Pixel>& px) { return renderer.paint(p, px); },
        [&](const Preset& p) { return renderer.time(p); });
    int broken = 0, answered = 0, skipped = 0;
    for (const StepReport& r : reports) {
        const std::string name = step_name(lesson, r.index);
        if (r.problem) {
            fmt::print(stderr, "kcanvas: lesson {}: {} is broken: {}\n", lesson.name, name, *r.problem);
            ++broken;
            continue;
        }
        fmt::print("{}: ok{}\n", name, r.answer ? "; answer " + answer_line(*r.answer) : "");
        answered += r.answer && !r.answer->skipped, skipped += r.answer && r.answer->skipped;
    }
    fmt::print("lesson {} on the {} backend: {} steps, {} broken, {} questions answered, {} timings skipped\n",
               lesson.name, renderer.backend(), reports.size(), broken, answered, skipped);
    return broken ? 1 : 0;
}

std::string step_text(const Lesson& lesson, std::size_t i, const std::optional<Answer>& answer) {
    const LessonStep& s = lesson.steps[i];
    std::string t =
        fmt::format("{}, step {} of {}: {}\n\n{}\n", lesson.title, i + 1, lesson.steps.size(), s.title, s.caption);
    if (s.question) {
        t += "\nQuestion: " + question_text(*s.question) + "\n";
        if (answer) t += "Answer: " + answer->text + "\nWhy: " + answer->why + "\n";
    }
    return t;
}

// A GIF of a step-mode step: its blocks appearing in launch order, through `kcanvas record`, up
// to the step's picture (step_blocks of them) in the last frame.
int record_step_gif(const LessonStep& step, const std::string& path, bool force) {
    Options o;
    apply_preset(step.preset, o);
    o.backend = Backend::Cpu;
    RecordFlags f;
    f.out = path, f.force = force, f.step = true, f.fps = 10, f.frames = 31;
    f.blocks_per_second = double(step.step_blocks) / 3.0; // frame 30 is 3 s in
    return run_record(f, o);
}

int export_lesson(const Lesson& lesson, LessonRenderer& renderer, const LessonFlags& f) {
    std::error_code ec;
    if (!std::filesystem::is_directory(f.out, ec) && !std::filesystem::create_directory(f.out, ec)) {
        fmt::print(stderr, "kcanvas: lesson export --out {}: cannot make the folder ({})\n", kc::quoted(f.out),
                   ec ? ec.message() : "its parent is missing");
        return 2;
    }
    const auto base_of = [&](std::size_t i) {
        return (std::filesystem::path(f.out) / fmt::format("step-{:02}", i + 1)).string();
    };
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) // refused before anything is written
        for (const char* ext : {".png", ".txt", ".gif"})
            if (auto e = read_only_refusal(base_of(i) + ext, f.force))
                return fmt::print(stderr, "kcanvas: {}\n", *e), 2;
    const auto reports = check_lesson(lesson, {}, [&](const Preset& p) { return renderer.time(p); }); // painted below
    for (const StepReport& r : reports) {
        const LessonStep& s = lesson.steps[r.index];
        if (r.problem) {
            fmt::print(stderr, "kcanvas: lesson {}: {} is broken: {}\n", lesson.name, step_name(lesson, r.index),
                       *r.problem);
            return 1;
        }
        const std::string base = base_of(r.index);
        std::vector<Pixel> pixels;
        if (auto e = renderer.paint(s.preset, pixels)) return fmt::print(stderr, "kcanvas: {}\n", *e), 1;
        if (auto e = write_image(base + ".png", s.preset.job.params.width, s.preset.job.params.height, pixels))
            return fmt::print(stderr, "kcanvas: {}\n", *e), 2;
        if (auto e = write_file_atomically(base + ".txt", step_text(lesson, r.index, r.answer)))
            return fmt::print(stderr, "kcanvas: {}\n", *e), 2;
        fmt::print("{}.png, {}.txt\n", base, base);
        if (s.step_blocks > 0) {
            if (const int code = record_step_gif(s, base + ".gif", f.force); code != 0) return code;
            fmt::print("{}.gif\n", base);
        }
    }
    return 0;
}

} // namespace

int run_lesson_command(const LessonFlags& f, std::optional<int> gpu) {
    if (f.action == "list") return list_lessons();
    std::optional<Backend> backend;
    if (f.backend != "auto") {
        backend = parse_backend(f.backend);
        if (!backend) {
            fmt::print(stderr, "kcanvas: unknown --backend '{}': choose cuda-interop, cuda-staged, cpu or auto\n",
                       escaped(f.backend, 40));
            return 2;
        }
    }
    Lesson lesson;
    if (auto e = load_lesson(f.lesson, lesson)) {
        fmt::print(stderr, "kcanvas: lesson {}: {}\n", f.action, *e);
        return 2;
    }
    LessonRenderer renderer(backend, gpu);
    return f.action == "check" ? check(lesson, renderer) : export_lesson(lesson, renderer, f);
}

} // namespace kc
