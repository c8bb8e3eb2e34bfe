#pragma once
// Writing a whole file so that a failure (a full disk, a missing folder, no permission) never
// leaves a broken or half-written file behind: the bytes go to a temporary file in the same folder,
// every write, the fsync and the close are checked, and only then is it renamed over the target.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kc {

// Writes `bytes` to `path`, replacing the file there only when every byte reached the disk. On
// failure the old file (if any) is as it was, no temporary is left, and the result says why, e.g.
// "cannot write 'x.png': disk full (the existing file is unchanged)".
std::optional<std::string> write_file_atomically(const std::string& path, std::span<const std::byte> bytes);
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text);

// Whether a file could be created at `path` at all: its folder exists, is a folder and is writable,
// and `path` is not a folder itself. Lets the command line refuse before hours of work; the write
// itself still checks everything.
std::optional<std::string> output_path_error(const std::string& path);

} // namespace kc
