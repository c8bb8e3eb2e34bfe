#include "render/io/quoted.h"

#include <fmt/format.h>

#include <cstdint>

namespace kc {

namespace {

// The length of the well-formed UTF-8 sequence at `s` (1..4), or 0 when it is not one.
std::size_t utf8_length(std::string_view s, char32_t& code) {
    const auto b = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
    const std::uint8_t lead = b(0);
    std::size_t n = 0;
    if (lead >= 0xc2 && lead <= 0xdf)
        n = 2, code = lead & 0x1f;
    else if (lead >= 0xe0 && lead <= 0xef)
        n = 3, code = lead & 0x0f;
    else if (lead >= 0xf0 && lead <= 0xf4)
        n = 4, code = lead & 0x07;
    else
        return 0;
    if (s.size() < n) return 0;
    for (std::size_t i = 1; i < n; ++i) {
        if ((b(i) & 0xc0) != 0x80) return 0;
        code = (code << 6) | (b(i) & 0x3f);
    }
    const bool overlong = (n == 3 && code < 0x800) || (n == 4 && code < 0x10000);
    const bool surrogate_or_past = (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff;
    return overlong || surrogate_or_past ? 0 : n;
}

// Appends one character of `s` (escaped where it must be) to `out`; returns the bytes it took.
std::size_t append_one(std::string_view s, bool quote, std::string& out) {
    const char c = s[0];
    const auto byte = static_cast<std::uint8_t>(c);
    if (byte >= 0x20 && byte < 0x7f) {
        if (quote && (c == '\'' || c == '\\')) out += '\\';
        out += c;
        return 1;
    }
    switch (c) {
    case '\n':
        out += "\\n";
        return 1;
    case '\t':
        out += "\\t";
        return 1;
    case '\r':
        out += "\\r";
        return 1;
    case '\x1b':
        out += "\\e";
        return 1;
    default:
        break;
    }
    if (byte < 0x80) { // the other C0 controls and DEL
        out += fmt::format("\\x{:02x}", byte);
        return 1;
    }
    char32_t code = 0;
    const std::size_t n = utf8_length(s, code);
    if (n == 0) {
        out += fmt::format("\\x{:02x}", byte);
        return 1;
    }
    if (code < 0xa0 || code == 0x2028 || code == 0x2029) // C1 controls (a terminal's CSI), line separators
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code));
    else
        out.append(s.substr(0, n));
    return n;
}

} // namespace

std::string quoted(std::string_view text, std::size_t max_chars) {
    std::string out = "'";
    std::size_t chars = 0, at = 0;
    while (at < text.size() && chars < max_chars) at += append_one(text.substr(at), true, out), ++chars;
    out += '\'';
    if (at < text.size()) out += "...";
    return out;
}

std::string escaped(std::string_view text, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0, at = 0;
    while (at < text.size() && chars < max_chars) at += append_one(text.substr(at), false, out), ++chars;
    if (at < text.size()) out += "...";
    return out;
}

} // namespace kc
