#pragma once
// Reading a whole file that a user (or an attacker) may have put anywhere: only a regular file is
// read (a FIFO would block the start for ever, /dev/zero would fill the memory), opened without
// blocking and checked after the open, and never more than a stated number of bytes. Every text,
// settings, preset and kernel file kcanvas reads goes through here.
#include <cstddef>
#include <optional>
#include <string>

namespace kc {

// Reads `path` into `text` when it is a regular file of at most `max_bytes`; otherwise returns why
// and leaves `text` alone: "cannot read 'x.json': not a regular file (a FIFO)", "cannot read
// 'x.json': 104857600 bytes, over the 2097152 a preset may hold" (`what`: "a preset").
std::optional<std::string> read_bounded_file(const std::string& path, std::size_t max_bytes, const std::string& what,
                                             std::string& text);

} // namespace kc
