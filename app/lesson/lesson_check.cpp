#include "app/lesson/lesson_check.h"

#include <fmt/format.h>

#include "gpu/cpu_emulator.h"
#include "gpu/paint_job.h"
#include "gpu/registry.h"
#include "render/cpu_user_kernel.h"

namespace kc {

namespace {

long long hatched_pixels(const std::vector<Pixel>& pixels, int width) {
    long long n = 0;
    for (std::size_t i = 0; i < pixels.size(); ++i)
        n += pixels[i] == uncovered_pixel(int(i % std::size_t(width)), int(i / std::size_t(width)));
    return n;
}

std::optional<std::string> check_step(const LessonStep& step, const StepPainter& paint, const KernelTimer& timer,
                                      std::optional<Answer>& answer) {
    const ResolvedLaunch r = resolve_launch(step.preset.job, universal_limits());
    if (r.refusal) return "the launch is refused: " + *r.refusal;
    std::vector<Pixel> pixels;
    if (paint) {
        if (auto e = paint(step.preset, pixels)) return "painting failed: " + *e;
        const std::size_t expected = std::size_t(step.preset.job.params.width) * step.preset.job.params.height;
        if (pixels.size() != expected) return fmt::format("painted {} pixels, not {}", pixels.size(), expected);
    }
    if (!step.question) return std::nullopt;
    auto a = answer_question(*step.question, step.preset, timer);
    if (const auto* e = std::get_if<std::string>(&a)) return "the question cannot be answered: " + *e;
    answer = std::get<Answer>(a);
    // The painted picture must show at least the uncovered pixels the model counts (hatched).
    if (step.question->kind == QuestionKind::UncoveredPixels && !pixels.empty() &&
        step.preset.job.view == View::Pixels) {
        const long long shown = hatched_pixels(pixels, step.preset.job.params.width);
        if (shown < answer->values.at(0))
            return fmt::format("the picture shows {} uncovered pixels where the model counts {}", shown,
                               answer->values[0]);
    }
    return std::nullopt;
}

} // namespace

StepPainter cpu_step_painter() {
    struct UserKernel {
        CpuUserKernel kernel;
        std::string source;
        KernelMode mode = KernelMode::Checked;
    };
    auto user = std::make_shared<UserKernel>();
    return [user](const Preset& p, std::vector<Pixel>& pixels) -> std::optional<std::string> {
        pixels.assign(std::size_t(p.job.params.width) * p.job.params.height, Pixel{});
        if (!op_registry()[p.job.op].user_code) return CpuGridEmulator().paint(p.job, pixels.data());
        const std::string source = p.kernel_source.empty() ? std::string(default_starter().source) : p.kernel_source;
        if (source != user->source || p.kernel_mode != user->mode || !user->kernel.loaded()) {
            const KernelCompile k = user->kernel.compile(source, "lesson.cu", p.kernel_mode);
            if (!k.ok) return "the step's kernel does not compile:\n" + k.log;
            user->source = source, user->mode = p.kernel_mode;
        }
        OpOutputs outputs;
        return user->kernel.paint(p.job, resolve_launch(p.job, universal_limits()), pixels.data(), p.job.params.src_a,
                                  p.job.params.src_b, nullptr, outputs);
    };
}

std::vector<StepReport> check_lesson(const Lesson& lesson, const StepPainter& paint, const KernelTimer& timer) {
    std::vector<StepReport> reports;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        StepReport r{i, std::nullopt, std::nullopt};
        r.problem = check_step(lesson.steps[i], paint, timer, r.answer);
        reports.push_back(std::move(r));
    }
    return reports;
}

} // namespace kc
