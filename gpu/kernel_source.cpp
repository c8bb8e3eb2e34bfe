#include "gpu/kernel_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "gpu/prelude/prelude_files.h"

namespace kc {

const char* to_string(KernelMode mode) { return mode == KernelMode::Raw ? "raw" : "checked"; }

std::optional<KernelMode> parse_kernel_mode(std::string_view name) {
    for (KernelMode m : kKernelModes)
        if (name == to_string(m)) return m;
    return std::nullopt;
}

const char* kernel_entry(KernelMode mode) { return mode == KernelMode::Raw ? "paint" : "kc_paint_checked"; }

namespace {

constexpr std::string_view kSignature = "extern \"C\" __global__ void paint(Pixel* out, int width, int height, "
                                        "const Pixel* a, const Pixel* b, float t)";

// A file's text without its `#pragma once` line (the prelude is one translation unit).
std::string without_pragma_once(std::string_view text) {
    std::string s(text);
    if (const auto at = s.find("#pragma once\n"); at != std::string::npos) s.erase(at, 13);
    return s;
}

// The source's code as a sequence of tokens that matter here: identifiers, string literals and
// single punctuation characters; comments, whitespace, numbers and character literals skipped.
struct Token {
    std::size_t begin, end;
    char kind; // 'i' identifier, 's' string literal, or the punctuation character itself
};

std::vector<Token> tokens(std::string_view s) {
    std::vector<Token> out;
    std::size_t i = 0;
    auto skip_quoted = [&](char quote) {
        for (++i; i < s.size() && s[i] != quote && s[i] != '\n'; ++i)
            if (s[i] == '\\') ++i;
        if (i < s.size()) ++i;
    };
    while (i < s.size()) {
        const char c = s[i];
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            const std::size_t close = s.find("*/", i + 2);
            i = close == std::string_view::npos ? s.size() : close + 2;
        } else if (c == '"') {
            const std::size_t start = i;
            skip_quoted('"');
            out.push_back({start, i, 's'});
        } else if (c == '\'') {
            skip_quoted('\'');
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = i;
            while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
            out.push_back({start, i, 'i'});
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
        } else {
            if (!std::isspace(static_cast<unsigned char>(c))) out.push_back({i, i + 1, c});
            ++i;
        }
    }
    return out;
}

// Overwrites [begin, end) of `s` with `text`, padded with spaces to the old length and keeping the
// old text's line breaks, so that no later line or column moves where the text is not longer.
void replace_in_place(std::string& s, std::size_t begin, std::size_t end, std::string text) {
    std::size_t breaks = 0;
    for (std::size_t k = begin; k < end; ++k) breaks += s[k] == '\n';
    if (text.size() + breaks < end - begin) text.append(end - begin - breaks - text.size(), ' ');
    text.append(breaks, '\n');
    s.replace(begin, end - begin, text);
}

// A parameter `[const] Pixel * [const] [__restrict__] name`: the view type it becomes.
std::optional<std::string> view_parameter(std::string_view param, bool output) {
    static const std::regex pointer(
        R"(^\s*(const\s+)?Pixel\s*\*\s*(const\s+)?(__restrict__\s+)?([A-Za-z_][A-Za-z_0-9]*)\s*$)");
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_match(param.begin(), param.end(), m, pointer)) return std::nullopt;
    if (output && m[1].matched) return std::nullopt; // out must be writable
    return fmt::format("{} {}", output ? "KcOut" : "KcIn", m[4].str());
}

struct Edit {
    std::size_t begin, end;
    std::string text;
};

// The edits that make one `paint` declaration (its name at tokens[at]) checked, or why not.
std::optional<std::string> signature_edits(std::string_view s, const std::vector<Token>& t, std::size_t at,
                                           std::vector<Edit>& edits) {
    // The declaration's specifiers: back to the previous ';', '{' or '}'.
    std::size_t first = at;
    while (first > 0 && t[first - 1].kind != ';' && t[first - 1].kind != '{' && t[first - 1].kind != '}') --first;
    bool global = false;
    for (std::size_t k = first; k < at; ++k) {
        const std::string_view word = s.substr(t[k].begin, t[k].end - t[k].begin);
        if (t[k].kind == 'i' && word == "__global__") // inlined into kc_paint_checked: the views stay in registers
            global = true, edits.push_back({t[k].begin, t[k].end, "__device__ __forceinline__"});
        if (t[k].kind == 'i' && word == "extern" && k + 1 < at && t[k + 1].kind == 's')
            edits.push_back({t[k].begin, t[k + 1].end, ""});
    }
    if (!global) return "";
    // The parameters: between the '(' after the name and its matching ')', split at depth-0 commas.
    std::vector<std::pair<std::size_t, std::size_t>> params;
    std::size_t k = at + 1, start = t[k].end;
    for (int depth = 0; ++k < t.size();) {
        if (t[k].kind == '(' || t[k].kind == '<' || t[k].kind == '[') ++depth;
        if (t[k].kind == ')' && depth == 0) {
            params.emplace_back(start, t[k].begin);
            break;
        }
        if (t[k].kind == ')' || t[k].kind == '>' || t[k].kind == ']') --depth;
        if (t[k].kind == ',' && depth == 0) params.emplace_back(start, t[k].begin), start = t[k].end;
    }
    const auto why = fmt::format("checked mode needs paint's signature as the prelude declares it:\n  {}\n"
                                 "(raw mode, --kernel-mode raw, compiles your code as written)",
                                 kSignature);
    if (params.size() != 6) return why;
    for (std::size_t p : {0u, 3u, 4u}) {
        const auto view = view_parameter(s.substr(params[p].first, params[p].second - params[p].first), p == 0);
        if (!view) return why;
        edits.push_back({params[p].first, params[p].second, " " + *view});
    }
    return std::nullopt;
}

} // namespace

CheckedSignature checked_signature(std::string_view source) {
    const std::vector<Token> t = tokens(source);
    std::vector<Edit> edits;
    bool found = false;
    for (std::size_t k = 0; k + 1 < t.size(); ++k) {
        if (t[k].kind != 'i' || source.substr(t[k].begin, t[k].end - t[k].begin) != "paint" || t[k + 1].kind != '(')
            continue;
        std::vector<Edit> these;
        const std::optional<std::string> why = signature_edits(source, t, k, these);
        if (why && why->empty()) continue; // a call, or a paint that is not the kernel
        if (why) {
            const auto line = 1 + std::count(source.begin(), source.begin() + t[k].begin, '\n');
            return {"", why, static_cast<int>(line)};
        }
        found = true;
        edits.insert(edits.end(), these.begin(), these.end());
    }
    if (!found)
        return {"", fmt::format("your code defines no kernel named paint: keep the signature\n  {}", kSignature)};
    std::string out(source);
    for (auto e = edits.rbegin(); e != edits.rend(); ++e) replace_in_place(out, e->begin, e->end, e->text);
    return {out, std::nullopt};
}

std::string user_kernel_prelude(KernelMode mode, KernelTarget target) {
    const bool cpu = target == KernelTarget::Cpu;
    std::string s = "#line 1 \"kcanvas_prelude.cuh\"\n";
    if (mode == KernelMode::Checked || cpu) s += without_pragma_once(prelude::check_abi);
    if (cpu) s += without_pragma_once(prelude::cpu_abi);
    s += cpu ? prelude::target_cpu : prelude::target_gpu;
    s += prelude::common;
    s += cpu ? prelude::words_cpu : prelude::words_gpu;
    s += prelude::pointers;
    s += mode == KernelMode::Checked ? prelude::checked : prelude::raw;
    return s;
}

CompileText kernel_text(std::string_view source, std::string_view file_name, KernelMode mode, KernelTarget target,
                        bool count_accesses) {
    const std::string name(file_name.empty() ? "kernel.cu" : file_name);
    if (mode == KernelMode::Raw)
        return {fmt::format("{}#line 1 \"{}\"\n{}\n", user_kernel_prelude(mode, target), name, source), std::nullopt};
    CheckedSignature checked = checked_signature(source);
    if (checked.refusal && checked.refusal_line > 0)
        return {"", fmt::format("{}({}): error: {}", name, checked.refusal_line, *checked.refusal)};
    if (checked.refusal) return {"", fmt::format("{}: error: {}", name, *checked.refusal)};
    return {fmt::format("{}{}#line 1 \"{}\"\n{}\n#line 1 \"kcanvas_entry.cuh\"\n{}",
                        count_accesses ? "#define KC_COUNT_ACCESSES 1\n" : "", user_kernel_prelude(mode, target), name,
                        checked.source, prelude::entry_checked),
            std::nullopt};
}

} // namespace kc
