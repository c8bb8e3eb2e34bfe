#include "app/core/data_dir.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace kc {

namespace fs = std::filesystem;

namespace {

bool holds_kcanvas_data(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "kernels", ec);
}

std::vector<fs::path> candidates(const fs::path& binary, const std::string& xdg_data_dirs) {
    std::vector<fs::path> dirs;
    if (binary.has_parent_path()) {
        const fs::path bin = binary.parent_path();
        dirs.push_back(bin / "share" / "kcanvas");
        dirs.push_back((bin.parent_path() / "share" / "kcanvas"));
    }
    std::istringstream list(xdg_data_dirs.empty() ? "/usr/local/share:/usr/share" : xdg_data_dirs);
    for (std::string entry; std::getline(list, entry, ':');)
        if (fs::path(entry).is_absolute())
            dirs.push_back(fs::path(entry) / "kcanvas"); // the spec ignores relative ones
    return dirs;
}

fs::path this_binary() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe;
}

} // namespace

DataDirSearch find_data_dir(const fs::path& binary, const std::string& xdg_data_dirs) {
    DataDirSearch search;
    for (const fs::path& dir : candidates(binary, xdg_data_dirs)) {
        search.looked_in.push_back(dir.lexically_normal());
        if (holds_kcanvas_data(dir)) {
            search.found = search.looked_in.back();
            break;
        }
    }
    return search;
}

const DataDirSearch& data_dir() {
    static const DataDirSearch search = [] {
        const char* xdg = std::getenv("XDG_DATA_DIRS");
        return find_data_dir(this_binary(), xdg ? xdg : "");
    }();
    return search;
}

std::string data_dir_summary(const DataDirSearch& search) {
    if (search.found) return search.found->string();
    std::string looked;
    for (const auto& dir : search.looked_in) looked += (looked.empty() ? "" : ", ") + dir.string();
    return "not found (looked in " + looked + ")";
}

std::string resolve_data_file(const std::string& name, const std::string& folder) {
    std::error_code ec;
    const fs::path given(name);
    if (name.empty() || fs::exists(given, ec) || given.has_parent_path() || !data_dir().found) return name;
    const fs::path shipped = *data_dir().found / folder / given;
    return fs::is_regular_file(shipped, ec) ? shipped.string() : name;
}

std::vector<fs::path> shipped_files(const std::string& folder) {
    std::vector<fs::path> files;
    if (!data_dir().found) return files;
    std::error_code ec;
    for (fs::directory_iterator it(*data_dir().found / folder, ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace kc
