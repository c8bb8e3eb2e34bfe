#include "app/core/kernel_editor.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace kc {

namespace {

std::string_view trim_left(std::string_view line) {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    return line;
}

bool is_comment_or_blank(std::string_view line) {
    line = trim_left(line);
    return line.empty() || line == "\r" || line.starts_with("//");
}

// "// text" -> "text"; "//" -> "".
std::string_view without_comment_mark(std::string_view line) {
    line = trim_left(line);
    line.remove_prefix(std::min<std::size_t>(2, line.size()));
    if (line.starts_with(' ')) line.remove_prefix(1);
    return line;
}

// The lines of `text` without their '\n' (a final '\n' ends the last line, it does not start one).
std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    return lines;
}

} // namespace

SplitSource split_trailing_comments(std::string_view source) {
    const std::vector<std::string_view> lines = lines_of(source);
    std::size_t first_trailing = lines.size();
    while (first_trailing > 0 && is_comment_or_blank(lines[first_trailing - 1])) --first_trailing;
    const bool has_comment = std::any_of(lines.begin() + std::ptrdiff_t(first_trailing), lines.end(),
                                         [](std::string_view l) { return trim_left(l).starts_with("//"); });
    if (first_trailing == 0 || !has_comment) return {std::string(source), {}};
    SplitSource split;
    for (std::size_t i = 0; i < first_trailing; ++i) split.code.append(lines[i]).push_back('\n');
    // The comment's lines flow into paragraphs (the panel wraps them); "//" alone ends one.
    std::string paragraph;
    for (std::size_t i = first_trailing; i <= lines.size(); ++i) {
        const std::string_view text = i < lines.size() ? without_comment_mark(lines[i]) : std::string_view();
        if (!text.empty()) {
            paragraph.append(paragraph.empty() ? "" : " ").append(text);
        } else if (!paragraph.empty()) {
            split.answer.append(split.answer.empty() ? "" : "\n\n").append(std::exchange(paragraph, {}));
        }
    }
    return split;
}

std::vector<int> error_lines(std::string_view log, std::string_view file_name) {
    std::vector<int> lines;
    const std::string prefix = std::string(file_name) + "(";
    for (std::string_view line : lines_of(log)) {
        if (!line.starts_with(prefix)) continue;
        line.remove_prefix(prefix.size());
        int number = 0;
        const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), number);
        const std::string_view after(end, line.data() + line.size() - end);
        if (ec != std::errc() || !after.starts_with(")") || after.find("error") == std::string_view::npos) continue;
        if (std::find(lines.begin(), lines.end(), number) == lines.end()) lines.push_back(number);
    }
    return lines;
}

KernelText starter_text(const StarterKernel& starter) {
    SplitSource split = split_trailing_comments(starter.source);
    return {std::move(split.code),
            std::move(split.answer),
            std::string(starter.name) + ".cu",
            "the starter " + std::string(starter.title),
            true,
            ""};
}

void load_starter(KernelEditorState& k, const StarterKernel& starter) {
    KernelText text = starter_text(starter);
    k.source = std::move(text.source);
    k.saved_source = k.source;
    k.answer = std::move(text.answer);
    k.show_answer = false;
    k.file_name = std::move(text.file_name);
    k.compile_wanted = true;
}

std::pair<int, int> line_span(std::string_view text, int line) {
    std::size_t start = 0;
    for (int i = 1; i < line && start < text.size(); ++i) {
        const std::size_t nl = text.find('\n', start);
        start = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    return {int(start), int(end)};
}

void replace_text(KernelEditorState& k, KernelText text) {
    KernelText out = k.current();
    out.what = "your text before " + text.what;
    // An unsaved text stays unsaved when it comes back (Undo replace): the quit dialog asks for it.
    k.saved_source = text.saved ? text.source : std::string();
    k.source = std::move(text.source), k.answer = std::move(text.answer), k.file_name = std::move(text.file_name);
    k.origin_path = std::move(text.path);
    k.show_answer = false, k.only_in_autosave = false, k.compile_wanted = true, k.text_replaced = true;
    k.replaced = std::move(out);
}

bool undo_replace(KernelEditorState& k) {
    if (!k.replaced) return false;
    KernelText back = std::move(*k.replaced);
    replace_text(k, std::move(back));
    k.replaced->what = "the text Undo replace took out";
    return true;
}

} // namespace kc
