#include "app/lesson/lesson.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

using nlohmann::json;

namespace {

// Text a lesson shows: printable, or line breaks; nothing a terminal would act on.
std::optional<std::string> text_of(const json& j, const char* key, bool required, std::string& out) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return required ? std::optional<std::string>(fmt::format("{}: missing", key)) : std::nullopt;
    if (!it->is_string()) return fmt::format("{}: expected text, got {}", key, json_excerpt(*it));
    const std::string text = it->get<std::string>();
    if (text.size() > kMaxLessonText)
        return fmt::format("{}: {} bytes, over the {} a lesson's text may hold", key, text.size(), kMaxLessonText);
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return fmt::format("{}: holds a control character ({})", key, kc::quoted(text, 40));
    out = text;
    return std::nullopt;
}

const std::vector<std::string_view> kStepKeys = {"title", "caption", "preset", "step_blocks", "question"};

std::optional<std::string> read_step(const json& j, const Preset& before, LessonStep& step) {
    if (!j.is_object()) return std::string("expected an object");
    for (const auto& [key, value] : j.items())
        if (std::find(kStepKeys.begin(), kStepKeys.end(), key) == kStepKeys.end())
            return fmt::format("{}: unknown key (a step has title, caption, preset, step_blocks, question)",
                               escaped(key, 40));
    if (auto e = text_of(j, "title", true, step.title)) return e;
    if (auto e = text_of(j, "caption", true, step.caption)) return e;
    step.preset = before;
    step.preset.job.max_blocks = -1;
    if (const auto p = j.find("preset"); p != j.end()) {
        std::vector<std::string> warnings; // an unknown key in a lesson is a mistake to fix, not to skip
        if (auto e = apply_partial_preset(*p, step.preset, warnings)) return "preset." + *e;
        if (!warnings.empty()) return "preset." + warnings.front();
    }
    if (const auto b = j.find("step_blocks"); b != j.end()) {
        if (!b->is_number_integer() || *b < -1 || *b > (1LL << 40))
            return fmt::format("step_blocks: expected a whole number of blocks (-1: all), got {}", json_excerpt(*b));
        step.step_blocks = b->get<long long>();
        step.preset.job.max_blocks = step.step_blocks;
    }
    if (const auto q = j.find("question"); q != j.end()) {
        Question question;
        if (auto e = parse_question(*q, step.preset, question)) return e;
        step.question = std::move(question);
    }
    return std::nullopt;
}

std::optional<std::string> read_lesson(const json& j, Lesson& out) {
    if (!j.is_object()) return std::string("expected a JSON object with \"kcanvas_lesson\": 1");
    const auto version = j.find("kcanvas_lesson");
    if (version == j.end()) return std::string("kcanvas_lesson: missing: this is not a kcanvas lesson");
    if (*version != kLessonVersion)
        return fmt::format("kcanvas_lesson: version {} is not the one this kcanvas reads ({})", json_excerpt(*version),
                           kLessonVersion);
    if (auto e = text_of(j, "title", true, out.title)) return e;
    if (auto e = text_of(j, "summary", false, out.summary)) return e;
    const auto steps = j.find("steps");
    if (steps == j.end() || !steps->is_array() || steps->empty())
        return std::string("steps: expected a list of at least one step");
    if (steps->size() > kMaxLessonSteps)
        return fmt::format("steps: {} steps, over the {} a lesson may hold", steps->size(), kMaxLessonSteps);
    Preset before;
    for (std::size_t i = 0; i < steps->size(); ++i) {
        LessonStep step;
        if (auto e = read_step((*steps)[i], before, step)) {
            std::string title;
            if ((*steps)[i].is_object()) (void)text_of((*steps)[i], "title", false, title);
            return fmt::format("step {}{}: {}", i + 1, title.empty() ? "" : " (" + kc::quoted(title, 40) + ")", *e);
        }
        before = step.preset;
        out.steps.push_back(std::move(step));
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_lesson(std::string_view text, const std::string& name, Lesson& out) {
    auto j = parse_json(text, kLessonLimits);
    if (const auto* e = std::get_if<std::string>(&j)) return *e;
    Lesson lesson;
    lesson.name = name;
    try {
        if (auto e = read_lesson(std::get<json>(j), lesson)) return e;
    } catch (const json::exception& e) { // a value of a type the reader did not expect
        return "unreadable: " + escaped(e.what(), 160);
    }
    out = std::move(lesson);
    return std::nullopt;
}

std::optional<std::string> load_lesson(const std::string& file_or_name, Lesson& out) {
    if (const ShippedLesson* s = find_shipped_lesson(file_or_name)) {
        if (auto e = parse_lesson(s->source, std::string(s->name), out))
            return "lesson " + std::string(s->name) + ": " + *e;
        return std::nullopt;
    }
    std::error_code ec;
    if (!file_or_name.ends_with(".json") && !std::filesystem::exists(file_or_name, ec))
        return fmt::format("{} is neither a lesson file nor a shipped lesson ({})", kc::quoted(file_or_name),
                           shipped_lesson_names());
    std::string text;
    if (auto e = read_bounded_file(file_or_name, kLessonLimits.max_bytes, kLessonLimits.what, text)) return e;
    const std::string stem = std::filesystem::path(file_or_name).stem().string();
    if (auto e = parse_lesson(text, stem, out)) return escaped(file_or_name) + ": " + *e;
    return std::nullopt;
}

const ShippedLesson* find_shipped_lesson(std::string_view name) {
    for (const ShippedLesson& s : shipped_lessons())
        if (s.name == name) return &s;
    return nullptr;
}

std::string shipped_lesson_names() {
    std::string names;
    for (const ShippedLesson& s : shipped_lessons()) names += (names.empty() ? "" : ", ") + std::string(s.name);
    return names;
}

std::string step_name(const Lesson& lesson, std::size_t index) {
    return fmt::format("step {} ({})", index + 1, kc::quoted(lesson.steps[index].title, 60));
}

} // namespace kc
