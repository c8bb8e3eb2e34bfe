#include "app/exercise/exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "app/core/preset.h"
#include "gpu/registry.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

using nlohmann::json;

std::string launch_name(const ExerciseLaunch& l) {
    const auto dim = [](const Dim3& d) {
        return d.z == 1 ? fmt::format("{}x{}", d.x, d.y) : fmt::format("{}x{}x{}", d.x, d.y, d.z);
    };
    return fmt::format("block {}, grid {} on {}x{}", dim(l.block), dim(l.grid), l.width, l.height);
}

Dim3 covering_grid(const Dim3& block, int width, int height) {
    return Dim3{(width + block.x - 1) / block.x, (height + block.y - 1) / block.y, 1};
}

std::vector<ExerciseLaunch> grading_launches(const Exercise& e) {
    std::vector<ExerciseLaunch> all = e.launches;
    const auto add = [&](const Dim3& block, int w, int h, std::optional<Dim3> grid = std::nullopt) {
        const ExerciseLaunch l{block, grid.value_or(covering_grid(block, w, h)), w, h};
        if (std::find(all.begin(), all.end(), l) == all.end()) all.push_back(l);
    };
    // 803x611: a prime width and a height that no block side divides.
    if (e.vary == LaunchVariety::Block) {
        add({32, 8, 1}, 800, 800);
        add({16, 16, 1}, 803, 611);
        add({8, 32, 1}, 803, 611);
        add({128, 1, 1}, 640, 480);
    } else if (e.vary == LaunchVariety::Canvas) {
        for (const ExerciseLaunch& l : e.launches) add(l.block, 803, 611);
    }
    return all;
}

std::vector<std::string> constraint_lines(const Exercise& e) {
    std::vector<std::string> lines;
    for (const ExerciseLaunch& l : e.launches) lines.push_back("works with " + launch_name(l));
    if (e.vary == LaunchVariety::Block)
        lines.push_back("and with other blocks (32x8, 16x16, 8x32, 128x1) on canvases no block divides (803x611)");
    else if (e.vary == LaunchVariety::Canvas)
        lines.push_back("and with the same block on a canvas it does not divide (803x611), the grid rounded up");
    const auto plural = [](unsigned n, const char* what) {
        return fmt::format("at most {} global {}{} per thread", n, what, n == 1 ? "" : "s");
    };
    if (e.max_reads) lines.push_back(plural(*e.max_reads, "read"));
    if (e.max_writes) lines.push_back(plural(*e.max_writes, "write"));
    lines.push_back("no out-of-range access (checked mode names the first)");
    return lines;
}

namespace {

// Text an exercise shows: printable, or line breaks; nothing a terminal would act on.
std::optional<std::string> text_of(const json& j, const std::string& key, std::string& out) {
    if (!j.is_string()) return fmt::format("{}: expected text, got {}", key, json_excerpt(j));
    const std::string text = j.get<std::string>();
    if (text.empty()) return fmt::format("{}: empty", key);
    if (text.size() > kMaxExerciseText)
        return fmt::format("{}: {} bytes, over the {} an exercise's text may hold", key, text.size(), kMaxExerciseText);
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return fmt::format("{}: holds a control character ({})", key, kc::quoted(text, 40));
    out = text;
    return std::nullopt;
}

std::optional<std::string> dim_of(const json& j, const std::string& key, Dim3& out) {
    const std::optional<Dim3> d = j.is_string() ? parse_dim3(j.get<std::string>()) : std::nullopt;
    if (!d) return fmt::format("{}: expected \"XxY\" or \"XxYxZ\", got {}", key, json_excerpt(j));
    out = *d;
    return std::nullopt;
}

std::optional<std::string> read_launch(const json& j, const std::string& key, ExerciseLaunch& l) {
    if (!j.is_object()) return fmt::format("{}: expected an object with block, grid and canvas", key);
    for (const auto& [k, v] : j.items())
        if (k != "block" && k != "grid" && k != "canvas")
            return fmt::format("{}.{}: unknown key (a launch has block, grid, canvas)", key, escaped(k, 40));
    if (!j.contains("block")) return key + ".block: missing";
    if (auto e = dim_of(j["block"], key + ".block", l.block)) return e;
    if (l.block.count() > 1024)
        return fmt::format("{}.block: {} threads, over the 1024 a block may hold", key, l.block.count());
    if (j.contains("canvas")) {
        Dim3 canvas;
        if (auto e = dim_of(j["canvas"], key + ".canvas", canvas)) return e;
        if (canvas.z != 1 || canvas.x > kMaxExerciseCanvas || canvas.y > kMaxExerciseCanvas)
            return fmt::format("{}.canvas: expected WxH of at most {} each", key, kMaxExerciseCanvas);
        l.width = canvas.x, l.height = canvas.y;
    }
    l.grid = covering_grid(l.block, l.width, l.height);
    if (j.contains("grid") && !(j["grid"].is_string() && j["grid"] == "cover"))
        if (auto e = dim_of(j["grid"], key + ".grid", l.grid)) return e;
    if (l.grid.count() > (1LL << 22))
        return fmt::format("{}.grid: {} blocks, over the {} a graded launch may have", key, l.grid.count(), 1LL << 22);
    return std::nullopt;
}

std::optional<std::string> read_target(const json& j, Exercise& out) {
    if (!j.is_object())
        return std::string("target: expected {\"op\": NAME, \"params\": {...}} or {\"solution\": true}");
    if (j.contains("solution")) {
        if (j.size() != 1 || j["solution"] != true) return std::string("target.solution: expected true, alone");
        out.target_is_solution = true;
        out.target_text = "the reference solution's picture";
        return std::nullopt;
    }
    for (const auto& [k, v] : j.items())
        if (k != "op" && k != "params")
            return fmt::format("target.{}: unknown key (a target has op and params, or solution)", escaped(k, 40));
    if (!j.contains("op") || !j["op"].is_string() || !find_op(j["op"].get<std::string>()))
        return fmt::format("target.op: expected one of the built-in ops ({})", op_names());
    Preset p;
    std::vector<std::string> warnings; // an unknown parameter is a mistake to fix, not to skip
    if (auto e = apply_partial_preset(j, p, warnings)) return "target." + *e;
    if (!warnings.empty()) return "target." + warnings.front();
    out.target_job = p.job;
    out.target_text = fmt::format("the built-in op {}", j["op"].get<std::string>());
    if (j.contains("params")) out.target_text += " " + j["params"].dump();
    return std::nullopt;
}

std::optional<std::string> read_budget(const json& j, const char* key, std::optional<unsigned>& out) {
    const auto it = j.find(key);
    if (it == j.end()) return std::nullopt;
    if (!it->is_number_unsigned() || *it < 1 || *it > 1000000)
        return fmt::format("{}: expected a whole number of accesses (1 or more), got {}", key, json_excerpt(*it));
    out = it->get<unsigned>();
    return std::nullopt;
}

const std::vector<std::string_view> kKeys = {"kcanvas_exercise", "title", "description", "target",
                                             "launches",         "vary",  "inputs",      "max_reads",
                                             "max_writes",       "timed", "hints"};

std::optional<std::string> read_choices(const json& j, Exercise& out) {
    if (const auto v = j.find("vary"); v != j.end()) {
        if (*v == "block")
            out.vary = LaunchVariety::Block;
        else if (*v == "canvas")
            out.vary = LaunchVariety::Canvas;
        else if (*v == "none")
            out.vary = LaunchVariety::None;
        else
            return fmt::format("vary: expected \"block\", \"canvas\" or \"none\", got {}", json_excerpt(*v));
    }
    if (const auto v = j.find("inputs"); v != j.end()) {
        if (*v == "default")
            out.inputs = ExerciseInputs::Default;
        else if (*v == "noise")
            out.inputs = ExerciseInputs::Noise;
        else
            return fmt::format("inputs: expected \"default\" or \"noise\", got {}", json_excerpt(*v));
    }
    if (const auto v = j.find("timed"); v != j.end()) {
        if (!v->is_boolean()) return fmt::format("timed: expected true or false, got {}", json_excerpt(*v));
        out.timed = v->get<bool>();
    }
    if (auto e = read_budget(j, "max_reads", out.max_reads)) return e;
    return read_budget(j, "max_writes", out.max_writes);
}

std::optional<std::string> read_exercise(const json& j, Exercise& out) {
    if (!j.is_object()) return std::string("expected a JSON object with \"kcanvas_exercise\": 1");
    const auto version = j.find("kcanvas_exercise");
    if (version == j.end()) return std::string("kcanvas_exercise: missing: this is not a kcanvas exercise");
    if (*version != kExerciseVersion)
        return fmt::format("kcanvas_exercise: version {} is not the one this kcanvas reads ({})",
                           json_excerpt(*version), kExerciseVersion);
    for (const auto& [key, value] : j.items())
        if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
            return fmt::format("{}: unknown key (README \"Exercises\" lists an exercise's keys)", escaped(key, 40));
    for (const char* key : {"title", "description", "target", "launches"})
        if (!j.contains(key)) return fmt::format("{}: missing", key);
    if (auto e = text_of(j["title"], "title", out.title)) return e;
    if (auto e = text_of(j["description"], "description", out.description)) return e;
    if (auto e = read_target(j["target"], out)) return e;
    const json& launches = j["launches"];
    if (!launches.is_array() || launches.empty() || launches.size() > kMaxExerciseLaunches)
        return fmt::format("launches: expected a list of 1 to {} launches", kMaxExerciseLaunches);
    for (std::size_t i = 0; i < launches.size(); ++i) {
        ExerciseLaunch l;
        if (auto e = read_launch(launches[i], fmt::format("launches[{}]", i), l)) return e;
        out.launches.push_back(l);
    }
    if (auto e = read_choices(j, out)) return e;
    if (const auto h = j.find("hints"); h != j.end()) {
        if (!h->is_array() || h->size() > kMaxExerciseHints)
            return fmt::format("hints: expected a list of at most {} texts", kMaxExerciseHints);
        for (std::size_t i = 0; i < h->size(); ++i)
            if (auto e = text_of((*h)[i], fmt::format("hints[{}]", i), out.hints.emplace_back())) return e;
    }
    return std::nullopt;
}

std::optional<std::string> kernel_of(std::string_view text, const char* what, std::string& out) {
    if (text.empty()) return fmt::format("{}: empty", what);
    if (text.size() > kMaxKernelBytes)
        return fmt::format("{}: {} bytes, over the {} a kernel may hold", what, text.size(), kMaxKernelBytes);
    if (text.find('\0') != std::string_view::npos) return fmt::format("{}: holds a NUL byte", what);
    out = std::string(text);
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_exercise(std::string_view json_text, std::string_view starter,
                                          std::string_view solution, const std::string& name, Exercise& out) {
    auto j = parse_json(json_text, kExerciseLimits);
    if (const auto* e = std::get_if<std::string>(&j)) return "exercise.json: " + *e;
    Exercise ex;
    ex.name = name;
    try {
        if (auto e = read_exercise(std::get<json>(j), ex)) return "exercise.json: " + *e;
    } catch (const json::exception& e) { // a value of a type the reader did not expect
        return "exercise.json: unreadable: " + escaped(e.what(), 160);
    }
    if (auto e = kernel_of(starter, "starter.cu", ex.starter)) return e;
    if (auto e = kernel_of(solution, "solution.cu", ex.solution)) return e;
    out = std::move(ex);
    return std::nullopt;
}

std::optional<std::string> load_exercise(const std::string& name_or_dir, Exercise& out) {
    if (const ShippedExercise* s = find_shipped_exercise(name_or_dir)) {
        if (auto e = parse_exercise(s->json, s->starter, s->solution, std::string(s->name), out))
            return "exercise " + std::string(s->name) + ": " + *e;
        return std::nullopt;
    }
    std::error_code ec;
    const std::filesystem::path dir(name_or_dir);
    if (!std::filesystem::is_directory(dir, ec))
        return fmt::format("{} is neither a shipped exercise ({}) nor a folder holding exercise.json",
                           kc::quoted(name_or_dir), shipped_exercise_names());
    std::string texts[3];
    const char* files[3] = {"exercise.json", "starter.cu", "solution.cu"};
    for (int i = 0; i < 3; ++i)
        if (auto e = read_bounded_file((dir / files[i]).string(), i == 0 ? kExerciseLimits.max_bytes : kMaxKernelBytes,
                                       i == 0 ? "an exercise" : "a kernel", texts[i]))
            return e;
    const std::string name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
    if (auto e = parse_exercise(texts[0], texts[1], texts[2], name, out)) return escaped(name_or_dir) + "/" + *e;
    return std::nullopt;
}

const ShippedExercise* find_shipped_exercise(std::string_view name) {
    for (const ShippedExercise& s : shipped_exercises())
        if (s.name == name) return &s;
    return nullptr;
}

std::string shipped_exercise_names() {
    std::string names;
    for (const ShippedExercise& s : shipped_exercises()) names += (names.empty() ? "" : ", ") + std::string(s.name);
    return names;
}

} // namespace kc
