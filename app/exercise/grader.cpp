#include "app/exercise/grader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

#include "app/exercise/grade_runner.h"
#include "gpu/cpu_emulator.h"
#include "gpu/ops/sources.h"
#include "render/cpu_user_kernel.h"

namespace kc {

namespace {

using Inputs = ExerciseImages;

Inputs make_inputs(const Exercise& e, int width, int height) {
    Inputs in;
    const std::size_t n = std::size_t(width) * height;
    in.a.resize(n), in.b.resize(n);
    if (e.inputs == ExerciseInputs::Noise) {
        unsigned s = 0x9E3779B9u ^ static_cast<unsigned>(width * 7919 + height); // xorshift32, seeded by the size
        const auto next = [&] { return s ^= s << 13, s ^= s >> 17, s ^= s << 5, s; };
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned v = next(), w = next();
            in.a[i] = Pixel{uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), 255};
            in.b[i] = Pixel{uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), 255};
        }
        return in;
    }
    // What the app gives a kernel without pictures: the gradient and the checkerboard.
    OpParams q = e.target_job.params;
    q.width = width, q.height = height, q.src_a = q.src_b = nullptr;
    prepare_divisors(q);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            in.a[std::size_t(y) * width + x] = source_a(x, y, q);
            in.b[std::size_t(y) * width + x] = source_b(x, y, q);
        }
    return in;
}

// "thread (3,2,0) of block (1,0,0)" from a thread's number in the launch.
std::string thread_name(unsigned long long number, const ExerciseLaunch& l) {
    const unsigned long long per_block = l.block.count();
    const unsigned long long block = number / per_block, t = number % per_block;
    const auto bx = static_cast<unsigned long long>(l.block.x), by = static_cast<unsigned long long>(l.block.y);
    const auto gx = static_cast<unsigned long long>(l.grid.x), gy = static_cast<unsigned long long>(l.grid.y);
    return fmt::format("thread ({},{},{}) of block ({},{},{})", t % bx, t / bx % by, t / (bx * by), block % gx,
                       block / gx % gy, block / (gx * gy));
}

AccessCount access_count(unsigned long long packed, const ExerciseLaunch& l) {
    AccessCount c;
    c.count = static_cast<unsigned>(packed >> 32);
    if (c.count) c.thread = thread_name(packed & 0xFFFFFFFFull, l);
    return c;
}

std::string plural(unsigned long long n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Compares one launch's output with the target and fills everything but the launch.
void judge(const RunOutput& run, const std::vector<Pixel>& target, const Exercise& e, LaunchResult& r) {
    r.error = run.error;
    r.violations = KernelViolations{run.violation.count, run.violation, r.launch.width, r.launch.height};
    r.reads = access_count(run.violation.most_reads, r.launch);
    r.writes = access_count(run.violation.most_writes, r.launch);
    std::vector<std::string> problems;
    if (run.error) {
        problems.push_back(*run.error);
    } else {
        for (std::size_t i = 0; i < target.size(); ++i) {
            const bool unwritten = run.writers[i] == 0u;
            const bool wrong = !unwritten && pack(run.pixels[i]) != pack(target[i]);
            r.unwritten += unwritten, r.wrong += wrong;
            if ((unwritten || wrong) && !r.first_wrong)
                r.first_wrong = std::pair(int(i % r.launch.width), int(i / r.launch.width));
        }
        if (r.wrong || r.unwritten)
            problems.push_back(fmt::format("{} differ, {} unwritten (the first at ({}, {}))",
                                           plural(r.wrong, "pixel", "pixels"), r.unwritten, r.first_wrong->first,
                                           r.first_wrong->second));
        if (r.violations.count) problems.push_back(describe(r.violations));
    }
    if (e.max_reads && r.reads.count > *e.max_reads)
        problems.push_back(
            fmt::format("{} made {} global reads, over the budget of {}", r.reads.thread, r.reads.count, *e.max_reads));
    if (e.max_writes && r.writes.count > *e.max_writes)
        problems.push_back(fmt::format("{} made {} global writes, over the budget of {}", r.writes.thread,
                                       r.writes.count, *e.max_writes));
    r.passed = problems.empty();
    for (const std::string& p : problems) r.problem += (r.problem.empty() ? "" : "; ") + p;
}

// The target pictures, one per canvas size, painted once.
class Targets {
public:
    Targets(const Exercise& e, GradeRunner& runner) : e_(e), runner_(runner) {}

    // Paints every canvas size's target (the solution is compiled, run and then unloaded here).
    std::optional<std::string> paint_all(const std::vector<ExerciseLaunch>& launches) {
        if (e_.target_is_solution)
            if (auto log = runner_.compile(e_.solution, e_.name + "/solution.cu"))
                return "the exercise's solution does not compile here: " + *log;
        for (const ExerciseLaunch& l : launches) {
            const auto key = std::pair(l.width, l.height);
            if (pictures_.count(key)) continue;
            inputs_[key] = make_inputs(e_, l.width, l.height);
            if (auto e = paint(l, inputs_[key], pictures_[key])) return e;
        }
        return std::nullopt;
    }
    const std::vector<Pixel>& picture(const ExerciseLaunch& l) const { return pictures_.at({l.width, l.height}); }
    const Inputs& inputs(const ExerciseLaunch& l) const { return inputs_.at({l.width, l.height}); }

private:
    // The solution paints with the first listed launch of this canvas, else the default's block.
    std::optional<std::string> paint(const ExerciseLaunch& l, const Inputs& in, std::vector<Pixel>& out) {
        if (e_.target_is_solution) {
            ExerciseLaunch own{e_.launches[0].block, covering_grid(e_.launches[0].block, l.width, l.height), l.width,
                               l.height};
            for (const ExerciseLaunch& listed : e_.launches)
                if (listed.width == l.width && listed.height == l.height) {
                    own = listed;
                    break;
                }
            RunOutput run = runner_.run(own, in.a.data(), in.b.data());
            if (run.error) return "the exercise's solution cannot paint its target: " + *run.error;
            if (run.violation.count)
                return "the exercise's solution reaches out of range: " +
                       describe({run.violation.count, run.violation, l.width, l.height});
            out = std::move(run.pixels);
            return std::nullopt;
        }
        PaintJob job = e_.target_job;
        job.params.width = l.width, job.params.height = l.height;
        job.params.src_a = in.a.data(), job.params.src_b = in.b.data();
        out.assign(std::size_t(l.width) * l.height, Pixel{});
        if (auto e = CpuGridEmulator().paint(job, out.data())) return "the target op cannot paint: " + *e;
        return std::nullopt;
    }

    const Exercise& e_;
    GradeRunner& runner_;
    std::map<std::pair<int, int>, Inputs> inputs_;
    std::map<std::pair<int, int>, std::vector<Pixel>> pictures_;
};

std::variant<std::unique_ptr<GradeRunner>, std::string> pick_runner(const GradeOptions& o) {
    if (o.backend == GradeBackend::Gpu) return make_gpu_runner(o.gpu);
    if (o.backend == GradeBackend::Auto) {
        auto gpu = make_gpu_runner(o.gpu);
        if (std::holds_alternative<std::unique_ptr<GradeRunner>>(gpu)) return gpu;
    }
    return make_cpu_runner(o.cache_dir.empty() ? cpu_kernel_cache_dir() : o.cache_dir);
}

void add_timing(const Exercise& e, std::string_view source, GradeRunner& runner, Targets& targets, GradeResult& r) {
    const ExerciseLaunch& l = e.launches[0];
    const Inputs& in = targets.inputs(l);
    auto before = runner.time(e.starter, l, in.a.data(), in.b.data());
    if (const auto* why = std::get_if<std::string>(&before)) {
        r.timing_note = *why;
        return;
    }
    r.starter_ms = std::get<double>(before);
    auto after = runner.time(source, l, in.a.data(), in.b.data());
    if (const auto* why = std::get_if<std::string>(&after)) {
        r.timing_note = "the submission could not be timed: " + *why;
        return;
    }
    r.submission_ms = std::get<double>(after);
    r.timing_note = fmt::format("{}: the starter {:.3f} ms, yours {:.3f} ms ({:.1f}x)", launch_name(l), *r.starter_ms,
                                *r.submission_ms, *r.starter_ms / std::max(*r.submission_ms, 1e-6));
}

void keep_pictures(const RunOutput& run, const std::vector<Pixel>& target, const ExerciseLaunch& l, GradeResult& r) {
    r.width = l.width, r.height = l.height;
    r.target = target, r.picture = run.pixels, r.writers = run.writers;
}

void take_maximum(AccessCount& best, const AccessCount& c) {
    if (c.count > best.count) best = c;
}

} // namespace

std::vector<Pixel> diff_picture(const GradeResult& r) {
    const std::size_t n = std::size_t(r.width) * r.height;
    if (r.target.size() != n || r.picture.size() != n || r.writers.size() != n) return {};
    std::vector<Pixel> diff(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int x = int(i % r.width), y = int(i / r.width);
        const Pixel t = r.target[i];
        diff[i] = r.writers[i] == 0u              ? uncovered_pixel(x, y)
                  : pack(r.picture[i]) != pack(t) ? Pixel{0, 0, 255, 255}
                                                  : Pixel{uint8_t(t.b / 3), uint8_t(t.g / 3), uint8_t(t.r / 3), 255};
    }
    return diff;
}

ExerciseImages exercise_images(const Exercise& exercise, int width, int height) {
    return make_inputs(exercise, width, height);
}

std::variant<std::vector<Pixel>, GradeRefusal> target_picture(const Exercise& exercise, const ExerciseLaunch& l,
                                                              const GradeOptions& options) {
    auto picked = pick_runner(options);
    if (const auto* why = std::get_if<std::string>(&picked)) return GradeRefusal{*why};
    Targets targets(exercise, *std::get<std::unique_ptr<GradeRunner>>(picked));
    if (auto why = targets.paint_all({l})) return GradeRefusal{exercise.name + ": " + *why};
    return targets.picture(l);
}

std::variant<GradeResult, GradeRefusal> grade(const Exercise& exercise, std::string_view source,
                                              std::string_view file_name, const GradeOptions& options) {
    auto picked = pick_runner(options);
    if (const auto* why = std::get_if<std::string>(&picked)) return GradeRefusal{*why};
    GradeRunner& runner = *std::get<std::unique_ptr<GradeRunner>>(picked);
    GradeResult r;
    r.exercise = exercise.name;
    r.backend = runner.backend();
    const std::vector<ExerciseLaunch> launches = grading_launches(exercise);
    Targets targets(exercise, runner);
    if (auto why = targets.paint_all(launches)) return GradeRefusal{exercise.name + ": " + *why};
    if (auto log = runner.compile(source, file_name)) {
        r.compile_log = *log;
        r.summary = "does not compile";
        return r;
    }
    r.compiled = true;
    for (const ExerciseLaunch& l : launches) {
        LaunchResult lr;
        lr.launch = l;
        const Inputs& in = targets.inputs(l);
        const RunOutput run = runner.run(l, in.a.data(), in.b.data());
        judge(run, targets.picture(l), exercise, lr);
        take_maximum(r.reads, lr.reads), take_maximum(r.writes, lr.writes);
        const bool first_failure = !lr.passed && !r.first_failed;
        if (first_failure) r.first_failed = r.launches.size();
        if (options.keep_pictures && !run.error && (first_failure || r.launches.empty()))
            keep_pictures(run, targets.picture(l), l, r);
        r.launches.push_back(std::move(lr));
        if (run.error) break; // crashed, stopped or refused: the next launches would be too, each after its limit
    }
    r.over_budget = (exercise.max_reads && r.reads.count > *exercise.max_reads) ||
                    (exercise.max_writes && r.writes.count > *exercise.max_writes);
    r.passed = !r.first_failed;
    if (r.passed)
        r.summary = fmt::format("passes {}", plural(r.launches.size(), "launch", "launches"));
    else
        r.summary = fmt::format("fails with {}: {}", launch_name(r.launches[*r.first_failed].launch),
                                r.launches[*r.first_failed].problem);
    if (exercise.timed) add_timing(exercise, source, runner, targets, r);
    return r;
}

std::string grade_json(const GradeResult& r, std::string_view file) {
    using nlohmann::json;
    const auto access = [](const AccessCount& c) { return json{{"max", c.count}, {"thread", c.thread}}; };
    json launches = json::array();
    for (const LaunchResult& l : r.launches) {
        json j{{"launch", launch_name(l.launch)},
               {"passed", l.passed},
               {"wrong", l.wrong},
               {"unwritten", l.unwritten},
               {"out_of_range", l.violations.count},
               {"reads", access(l.reads)},
               {"writes", access(l.writes)},
               {"problem", l.problem}};
        if (l.violations.count) j["first_out_of_range"] = describe(l.violations);
        if (l.error) j["error"] = *l.error;
        launches.push_back(std::move(j));
    }
    json j{{"exercise", r.exercise},         {"file", std::string(file)},  {"passed", r.passed},
           {"backend", r.backend},           {"summary", r.summary},       {"compiled", r.compiled},
           {"reads", access(r.reads)},       {"writes", access(r.writes)}, {"over_budget", r.over_budget},
           {"launches", std::move(launches)}};
    if (!r.compile_log.empty()) j["compile_log"] = r.compile_log;
    j["first_failed"] = r.first_failed ? json(launch_name(r.launches[*r.first_failed].launch)) : json(nullptr);
    if (r.starter_ms) j["starter_ms"] = *r.starter_ms;
    if (r.submission_ms) j["submission_ms"] = *r.submission_ms;
    if (!r.timing_note.empty()) j["timing"] = r.timing_note;
    // Bytes a compiler or a kernel printed may be anything: invalid UTF-8 is replaced, not thrown.
    return j.dump(-1, ' ', true, json::error_handler_t::replace);
}

} // namespace kc
