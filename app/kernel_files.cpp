#include "kernel_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kc {

std::optional<std::string> read_text_file(const std::string& path, std::string& text) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fmt::format("cannot read '{}': it is a directory", path);
    std::ifstream in(path, std::ios::binary);
    if (!in) return fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    std::ostringstream contents;
    contents << in.rdbuf();
    if (in.bad()) return fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    text = contents.str();
    return std::nullopt;
}

std::optional<std::string> write_text_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    out << text;
    out.close();
    if (!out) return fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return std::nullopt;
}

namespace {

// Writes all of `text` to the open file `fd` and flushes it to the disk; false with errno set on failure.
bool write_all_and_sync(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return ::fsync(fd) == 0;
}

// Makes a rename in `dir` durable; best effort (some file systems refuse to sync a directory).
void sync_directory(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

} // namespace

std::optional<std::string> write_text_file_atomically(const std::string& path, const std::string& text) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return fmt::format("cannot write '{}': cannot create {}: {}", path, dir.string(), ec.message());
    std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) return fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    const bool written = write_all_and_sync(fd, text);
    const int write_errno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed || ::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(!written ? write_errno : errno);
        ::unlink(temp.c_str()); // the previous file stays as it was
        return fmt::format("cannot write '{}': {}", path, why);
    }
    sync_directory(dir);
    return std::nullopt;
}

std::optional<std::filesystem::path> user_data_dir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kcanvas";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local" / "share" / "kcanvas";
    return std::nullopt;
}

std::string save_faulted_kernel(const std::string& source) {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string name = fmt::format("kcanvas-kernel-{}.cu", stamp);
    const auto error = write_text_file(name, source);
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

std::string file_name_of(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    return name.empty() ? "kernel.cu" : name;
}

} // namespace kc
