#pragma once
// Reading JSON that came from a file (presets now, lessons next): bounded before it is parsed. The
// size is checked first, then the nesting depth by a scan of the brackets (a value nested 80,000
// deep would overflow the stack of any recursive walk, e.g. printing it), and a parse error names
// its line and column. With render/io/bounded_file.h, which reads the file (a regular file, at
// most max_bytes), it is the one way JSON comes in. Values are quoted in messages by json_excerpt: a short, escaped
// prefix.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace kc {

struct JsonLimits {
    std::size_t max_bytes;
    int max_depth;    // arrays and objects inside each other; the top-level value is depth 1
    std::string what; // for messages: "a preset"
};

// The JSON in `text`, or why not: "4194304 bytes, over the 2097152 bytes a preset may hold",
// "line 1, column 65: nested deeper than the 32 levels a preset may hold", "not valid JSON at line
// 3, column 7: syntax error while parsing object - unexpected '}'; expected string literal".
std::variant<nlohmann::json, std::string> parse_json(std::string_view text, const JsonLimits& limits);

// "line L, column C" of a byte offset in `text` (both from 1; columns count UTF-8 characters).
std::string line_column(std::string_view text, std::size_t offset);

// A value for a message: its JSON text, ASCII only (so nothing reaches a terminal raw), cut after
// `max_chars` with "...".
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 40);

} // namespace kc
