#include "app/core/kernel_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "app/core/data_dir.h"
#include "app/core/user_dirs.h"
#include "render/io/atomic_file.h"
#include "render/io/bounded_file.h"

namespace kc {

std::optional<std::string> read_text_file(const std::string& path, std::string& text) {
    return read_bounded_file(path, kMaxKernelFileBytes, "a kernel file", text);
}

std::optional<std::string> write_text_file(const std::string& path, const std::string& text) {
    return write_file_atomically(path, std::string_view(text));
}

std::optional<std::string> write_text_file_atomically(const std::string& path, const std::string& text) {
    const std::filesystem::path target(path);
    if (target.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(target.parent_path(), ec);
        if (ec)
            return fmt::format("cannot write '{}': cannot create {}: {}", path, target.parent_path().string(),
                               ec.message());
    }
    return write_file_atomically(path, std::string_view(text));
}

std::string save_faulted_kernel(const std::string& source) {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string file = fmt::format("kcanvas-kernel-{}.cu", stamp);
    std::filesystem::path name = rescue_dir() / file;
    auto error = write_text_file_atomically(name.string(), source);
    if (error && name.has_parent_path()) { // a data dir that cannot be written: the working directory, then
        name = file;
        error = write_text_file(file, source);
    }
    const std::string where = std::filesystem::absolute(name).string();
    return error ? "your kernel's source could not be saved: " + *error : "your kernel's source is saved in " + where;
}

std::string kernel_fault_message(const std::string& what, const std::string& saved_note) {
    return fmt::format("a kernel faulted on the GPU: {}\n{}"
                       "After a fault CUDA refuses all further work in this process, so kcanvas has to close; start it "
                       "again to go on.\nCommon causes: a missing or off-by-one bounds check "
                       "(if (x >= width || y >= height) return;), an index computed from the wrong blockDim, a null "
                       "or wrong pointer.",
                       what, saved_note.empty() ? "" : saved_note + "\n");
}

std::string kernel_save_target(const std::string& path, const std::string& fallback) {
    if (path.empty()) return fallback;
    const auto& installed = data_dir().found;
    const auto user = user_data_dir();
    if (!installed || !user) return path;
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::weakly_canonical(path, ec);
    const std::filesystem::path shipped = std::filesystem::weakly_canonical(*installed, ec);
    const auto [end, at] = std::mismatch(shipped.begin(), shipped.end(), file.begin(), file.end());
    if (ec || end != shipped.end()) return path; // not inside the installed folder
    return (*user / file_name_of(path)).string();
}

std::string file_name_of(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    return name.empty() ? "kernel.cu" : name;
}

} // namespace kc
