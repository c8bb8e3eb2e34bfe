#pragma once
// Where kcanvas finds the data it ships (sample images, starter kernels, lessons as they come), at
// run time and without a path compiled in, so a build tree, an install prefix moved anywhere and a
// .deb all work:
//   1. <the binary's folder>/share/kcanvas       (a build tree: CMake copies assets/ there)
//   2. <the binary's folder>/../share/kcanvas    (an install prefix: bin/kcanvas, share/kcanvas)
//   3. each of $XDG_DATA_DIRS (default /usr/local/share:/usr/share), + /kcanvas
// The first that holds kernels/ wins.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kc {

struct DataDirSearch {
    std::optional<std::filesystem::path> found;
    std::vector<std::filesystem::path> looked_in; // in order, the found one last
};

// The search for this process (its binary from /proc/self/exe, $XDG_DATA_DIRS); done once.
const DataDirSearch& data_dir();
// The same rules for a given binary and $XDG_DATA_DIRS value (empty: the spec's default).
DataDirSearch find_data_dir(const std::filesystem::path& binary, const std::string& xdg_data_dirs);

// "/usr/share/kcanvas", or "not found (looked in A, B, C)": what --version prints.
std::string data_dir_summary(const DataDirSearch& search);

// A name given for an input file: itself when it names a file here, else the data dir's
// `folder`/NAME when NAME is a bare file name found there (--image rose.jpg, --kernel waves.cu),
// else itself again (the loader then says it is missing).
std::string resolve_data_file(const std::string& name, const std::string& folder);

// The regular files of the data dir's `folder` (images: the sample pictures), sorted by name;
// empty without a data dir.
std::vector<std::filesystem::path> shipped_files(const std::string& folder);

// The photograph image ops start on when no image is loaded (a file of the data dir's images/).
inline constexpr const char* kDefaultSampleImage = "rose.jpg";

} // namespace kc
