#include "app/core/json_file.h"

#include <fmt/format.h>

#include "render/io/quoted.h"

namespace kc {

using nlohmann::json;

namespace {

// Where the nesting first goes past `max_depth`, or npos. Brackets inside strings do not count.
std::size_t too_deep_at(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false, escape = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

// nlohmann's reason without its own prefix ("[json.exception.parse_error.101] parse error at line
// 1, column 2: "), escaped and cut: it may quote a long token.
std::string parse_reason(const json::exception& e) {
    std::string_view what = e.what();
    if (const auto id = what.find("] "); id != std::string_view::npos) what.remove_prefix(id + 2);
    if (const auto colon = what.find(": "); what.starts_with("parse error") && colon != std::string_view::npos)
        what.remove_prefix(colon + 2);
    return escaped(what, 160);
}

} // namespace

std::string line_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n')
            line += 1, column = 1;
        else if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80)
            column += 1; // not a continuation byte
    }
    return fmt::format("line {}, column {}", line, column);
}

std::variant<json, std::string> parse_json(std::string_view text, const JsonLimits& limits) {
    if (text.size() > limits.max_bytes)
        return fmt::format("{} bytes, over the {} bytes {} may hold", text.size(), limits.max_bytes, limits.what);
    if (const auto at = too_deep_at(text, limits.max_depth); at != std::string_view::npos)
        return fmt::format("{}: nested deeper than the {} levels {} may hold", line_column(text, at), limits.max_depth,
                           limits.what);
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte counts from 1 and points at the last character read: the one that did not fit.
        const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        return fmt::format("not valid JSON at {}: {}", line_column(text, at), parse_reason(e));
    } catch (const json::exception& e) { // a number too large for a double: out_of_range, no position
        return "not valid JSON: " + parse_reason(e);
    }
}

std::string json_excerpt(const json& value, std::size_t max_chars) {
    const std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    return text.size() <= max_chars ? text : text.substr(0, max_chars) + "...";
}

} // namespace kc
