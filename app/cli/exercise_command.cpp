#include "app/cli/exercise_command.h"

#include <fmt/format.h>
#include <glob.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <vector>

#include "app/exercise/exercise.h"
#include "app/exercise/grader.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

namespace {

int list_exercises() {
    for (const ShippedExercise& s : shipped_exercises()) {
        Exercise e;
        if (auto why = parse_exercise(s.json, s.starter, s.solution, std::string(s.name), e)) {
            fmt::print("{}  (unreadable: {})\n", s.name, *why);
            continue;
        }
        fmt::print("{}  {}\n", e.name, e.title);
    }
    return 0;
}

// The files --kernel names: itself when it holds no glob character, else its matches (sorted).
std::optional<std::string> kernel_files(const std::string& pattern, std::vector<std::string>& files) {
    if (pattern.find_first_of("*?[") == std::string::npos) {
        files.push_back(pattern);
        return std::nullopt;
    }
    glob_t g{};
    const int rc = ::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &g);
    struct Free {
        glob_t& g;
        ~Free() { globfree(&g); }
    } free_glob{g};
    if (rc == GLOB_NOMATCH || (rc == 0 && g.gl_pathc == 0))
        return fmt::format("--kernel {}: no file matches", kc::quoted(pattern));
    if (rc != 0) return fmt::format("--kernel {}: the pattern cannot be read", kc::quoted(pattern));
    if (g.gl_pathc > kMaxGradedFiles)
        return fmt::format("--kernel {}: {} files match, over the {} one check grades", kc::quoted(pattern), g.gl_pathc,
                           kMaxGradedFiles);
    for (std::size_t i = 0; i < g.gl_pathc; ++i) files.emplace_back(g.gl_pathv[i]);
    std::sort(files.begin(), files.end());
    return std::nullopt;
}

std::optional<GradeBackend> parse_grade_backend(const std::string& name) {
    if (name == "auto") return GradeBackend::Auto;
    if (name == "gpu") return GradeBackend::Gpu;
    if (name == "cpu") return GradeBackend::Cpu;
    return std::nullopt;
}

void print_text(const GradeResult& r, const std::string& file) {
    fmt::print("{}: {} {} on the {} backend\n", escaped(file), r.exercise, r.summary, r.backend);
    if (!r.compiled) fmt::print("{}\n", r.compile_log);
    for (const LaunchResult& l : r.launches)
        fmt::print("  {}: {}{}\n", launch_name(l.launch), l.passed ? "ok" : "FAILS: ", l.problem);
    if (r.reads.count || r.writes.count)
        fmt::print("  most global reads by one thread: {}{}; writes: {}{}\n", r.reads.count,
                   r.reads.count ? " (" + r.reads.thread + ")" : "", r.writes.count,
                   r.writes.count ? " (" + r.writes.thread + ")" : "");
    if (!r.timing_note.empty()) fmt::print("  timing: {}\n", r.timing_note);
}

// A file that cannot be read, as its JSON line: the class's other files are still graded.
void print_unreadable(const Exercise& e, const std::string& file, const std::string& why) {
    const nlohmann::json j{{"exercise", e.name}, {"file", escaped(file)}, {"passed", false}, {"error", why}};
    fmt::print("{}\n", j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
}

// 0 passed, 1 failed, 2 the file could not be read; `refused` when the grader cannot run at all.
int check_file(const Exercise& e, const std::string& file, const GradeOptions& options, bool json, bool& refused) {
    std::string source;
    if (auto why = read_bounded_file(file, kMaxKernelBytes, "a kernel", source)) {
        fmt::print(stderr, "kcanvas: exercise check: {}\n", *why);
        if (json) print_unreadable(e, file, *why);
        return 2;
    }
    const auto graded = grade(e, source, std::filesystem::path(file).filename().string(), options);
    if (const auto* refusal = std::get_if<GradeRefusal>(&graded)) {
        fmt::print(stderr, "kcanvas: exercise check: {}\n", refusal->why);
        refused = true;
        return 2;
    }
    const GradeResult& r = std::get<GradeResult>(graded);
    if (json)
        fmt::print("{}\n", grade_json(r, escaped(file)));
    else
        print_text(r, file);
    std::fflush(stdout);
    return r.passed ? 0 : 1;
}

int check(const Exercise& e, const ExerciseFlags& f, std::optional<int> gpu) {
    GradeOptions options;
    const auto backend = parse_grade_backend(f.backend);
    if (!backend) {
        fmt::print(stderr, "kcanvas: exercise check --backend {}: choose auto, gpu or cpu\n", escaped(f.backend, 40));
        return 2;
    }
    options.backend = *backend, options.gpu = gpu.value_or(0), options.keep_pictures = false;
    std::vector<std::string> files;
    if (auto why = kernel_files(f.kernel, files)) {
        fmt::print(stderr, "kcanvas: exercise check: {}\n", *why);
        return 2;
    }
    int worst = 0; // 2 beats 1 beats 0
    bool refused = false;
    for (const std::string& file : files) {
        worst = std::max(worst, check_file(e, file, options, f.json, refused));
        if (refused) break; // no compiler, no GPU: the same for every file
    }
    return worst;
}

} // namespace

int run_exercise_command(const ExerciseFlags& f, std::optional<int> gpu) {
    if (f.action == "list") return list_exercises();
    Exercise e;
    if (auto why = load_exercise(f.exercise, e)) {
        fmt::print(stderr, "kcanvas: exercise {}: {}\n", f.action, *why);
        return 2;
    }
    if (f.action == "starter") return fmt::print("{}", e.starter), 0;
    if (f.action == "solution") return fmt::print("{}", e.solution), 0;
    return check(e, f, gpu);
}

} // namespace kc
