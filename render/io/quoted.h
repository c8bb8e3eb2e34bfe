#pragma once
// Strings that came from a file or the user (an op name, a path, a JSON key) are shown in messages
// quoted and escaped, so a preset cannot send escape sequences to the terminal (set its title,
// clear it) and a megabyte of text never lands in one message.
#include <cstddef>
#include <string>
#include <string_view>

namespace kc {

// 'text' in single quotes: control characters, DEL, C1 controls and bytes that are not UTF-8 as
// \n, \t, \e, \xNN or \uNNNN; a ' or \ inside as \' and \\ (so "$" + quoted(w, -1) is a bash word,
// $'...'). Past `max_chars` characters the rest is cut and "..." follows the closing quote.
std::string quoted(std::string_view text, std::size_t max_chars = 80);

// `text` with the same escapes but no quotes (for text already framed: a file name before ": ",
// a JSON key), cut after `max_chars` characters with "...".
std::string escaped(std::string_view text, std::size_t max_chars = 200);

} // namespace kc
