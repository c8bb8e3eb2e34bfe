#include "render/io/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace kc {

namespace {
namespace fs = std::filesystem;

// The file a path names: a symbolic link is followed, so that the file it points to is replaced,
// not the link.
fs::path resolved_target(const std::string& path) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) return path;
    const fs::path real = fs::weakly_canonical(path, ec);
    return ec ? fs::path(path) : real;
}

fs::path folder_of(const fs::path& path) {
    const fs::path folder = path.parent_path();
    return folder.empty() ? fs::path(".") : folder;
}

// What an errno means to someone saving a file.
std::string reason_for(int error, const fs::path& folder) {
    switch (error) {
    case ENOSPC:
        return "disk full";
    case EDQUOT:
        return "disk quota exceeded";
    case EACCES:
    case EPERM:
        return fmt::format("permission denied (folder '{}')", folder.string());
    case ENOENT:
        return fmt::format("the folder '{}' does not exist", folder.string());
    case ENOTDIR:
        return fmt::format("'{}' is not a folder", folder.string());
    case EROFS:
        return "read-only file system";
    default:
        return std::strerror(error);
    }
}

std::string failure(const std::string& path, const std::string& reason, bool existed) {
    return fmt::format("cannot write '{}': {}{}", path, reason, existed ? " (the existing file is unchanged)" : "");
}

// Writes all of `bytes`, resuming after short writes and signals; returns 0 or the errno.
int write_all(int fd, std::span<const std::byte> bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return ENOSPC; // no progress and no error: nothing more fits
        bytes = bytes.subspan(std::size_t(n));
    }
    return 0;
}

// Creates a new file beside `target` under a name nobody else uses (mode 0666 less the umask, as
// any new file gets). Returns its descriptor, or -1 with errno set.
int create_temporary(const fs::path& target, fs::path& temp) {
    static std::atomic<unsigned> counter{0};
    // Short enough that the temporary's name fits where the target's did.
    const std::string stem = target.filename().string().substr(0, 100);
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp = folder_of(target) / fmt::format(".{}.kcanvas-{}-{}.tmp", stem, ::getpid(), counter++);
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

// Writes, flushes to the disk and closes `fd`; returns 0 or the first errno.
int write_sync_close(int fd, std::span<const std::byte> bytes) {
    int error = write_all(fd, bytes);
    if (!error && ::fsync(fd) != 0 && errno != EINVAL) error = errno; // EINVAL: a pipe or device, nothing to sync
    if (::close(fd) != 0 && !error && errno != EINTR) error = errno;  // Linux closes the fd even on EINTR
    return error;
}

// A device or pipe that already exists (/dev/null, a FIFO) cannot be replaced: write into it.
std::optional<std::string> write_in_place(const std::string& path, std::span<const std::byte> bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return failure(path, std::strerror(errno), false);
    if (const int error = write_sync_close(fd, bytes)) return failure(path, std::strerror(error), false);
    return std::nullopt;
}

// So that the rename itself survives a crash; a folder that cannot be synced changes nothing.
void sync_folder(const fs::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// A name the file system cannot hold, found before any work rather than at the final rename.
std::optional<std::string> name_length_error(const std::string& path) {
    if (path.size() >= PATH_MAX)
        return failure(path.substr(0, 60) + "...",
                       fmt::format("the path is {} bytes long, over the {} Linux allows", path.size(), PATH_MAX - 1),
                       false);
    for (const fs::path& part : fs::path(path))
        if (part.native().size() > NAME_MAX)
            return failure(path.substr(0, 60) + "...",
                           fmt::format("a name in it is {} bytes long, over the {} a file name may have",
                                       part.native().size(), NAME_MAX),
                           false);
    return std::nullopt;
}

} // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::span<const std::byte> bytes) {
    if (path.empty()) return "cannot write a file without a name";
    const fs::path target = resolved_target(path);
    const fs::path folder = folder_of(target);
    struct stat old {};
    const bool existed = ::stat(target.c_str(), &old) == 0;
    if (existed && S_ISDIR(old.st_mode)) return failure(path, "it is a folder", false);
    if (existed && !S_ISREG(old.st_mode)) return write_in_place(target.string(), bytes);

    fs::path temp;
    const int fd = create_temporary(target, temp);
    if (fd < 0) return failure(path, reason_for(errno, folder), existed);
    if (existed) ::fchmod(fd, old.st_mode & 07777); // keep the replaced file's permissions
    int error = write_sync_close(fd, bytes);
    if (!error && ::rename(temp.c_str(), target.c_str()) != 0) error = errno;
    if (error) {
        ::unlink(temp.c_str());
        return failure(path, reason_for(error, folder), existed);
    }
    sync_folder(folder);
    return std::nullopt;
}

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text) {
    return write_file_atomically(path, std::as_bytes(std::span(text.data(), text.size())));
}

std::optional<std::string> output_path_error(const std::string& path) {
    if (path.empty()) return "cannot write a file without a name";
    if (auto e = name_length_error(path)) return e;
    const fs::path target = resolved_target(path);
    const fs::path folder = folder_of(target);
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return failure(path, "it is a folder", false);
        if (!S_ISREG(st.st_mode)) // a device or pipe is written in place
            return ::access(target.c_str(), W_OK) == 0 ? std::nullopt
                                                       : std::optional(failure(path, std::strerror(errno), false));
    }
    if (::stat(folder.c_str(), &st) != 0) return failure(path, reason_for(errno, folder), false);
    if (!S_ISDIR(st.st_mode)) return failure(path, reason_for(ENOTDIR, folder), false);
    if (::access(folder.c_str(), W_OK) != 0) return failure(path, reason_for(errno, folder), false);
    return std::nullopt;
}

std::optional<std::string> read_only_error(const std::string& path) {
    struct stat st {};
    if (path.empty() || ::stat(resolved_target(path).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    // By the mode, not access(): root may write anything, yet a file made read-only is still meant to stay.
    if ((st.st_mode & 0222) != 0 && ::access(path.c_str(), W_OK) == 0) return std::nullopt;
    return fmt::format("'{}' is read-only (mode {:04o}); kcanvas does not replace a file made read-only", path,
                       st.st_mode & 07777);
}

std::variant<PendingFile, std::string> PendingFile::create(const std::string& target, std::string_view suffix) {
    if (target.empty()) return std::string("cannot write a file without a name");
    const fs::path resolved = resolved_target(target);
    fs::path temp;
    int fd = -1;
    static std::atomic<unsigned> counter{0};
    const std::string stem = resolved.filename().string().substr(0, 100);
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp = folder_of(resolved) / fmt::format(".{}.kcanvas-{}-{}{}", stem, ::getpid(), counter++, suffix);
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) break;
    }
    if (fd < 0) return failure(target, reason_for(errno, folder_of(resolved)), false);
    PendingFile file;
    file.target_ = resolved.string(), file.temp_ = temp.string(), file.fd_ = fd;
    return file;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : target_(std::move(other.target_)), temp_(std::exchange(other.temp_, {})), fd_(std::exchange(other.fd_, -1)) {}

PendingFile& PendingFile::operator=(PendingFile&& other) noexcept {
    if (this != &other) {
        discard();
        target_ = std::move(other.target_), temp_ = std::exchange(other.temp_, {}), fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

PendingFile::~PendingFile() { discard(); }

std::optional<std::string> PendingFile::write(std::span<const std::byte> bytes) {
    if (fd_ < 0) return failure(target_, "the file is closed", false);
    if (const int error = write_all(fd_, bytes)) return failure(target_, reason_for(error, folder_of(target_)), false);
    return std::nullopt;
}

void PendingFile::close_descriptor() {
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

std::optional<std::string> PendingFile::commit() {
    if (temp_.empty()) return failure(target_, "nothing was written", false);
    int error = 0;
    if (fd_ < 0) fd_ = ::open(temp_.c_str(), O_WRONLY | O_CLOEXEC); // written by another program: sync it too
    if (fd_ < 0) error = errno;
    if (!error) error = write_sync_close(std::exchange(fd_, -1), {});
    if (!error && ::rename(temp_.c_str(), target_.c_str()) != 0) error = errno;
    if (error) {
        discard();
        return failure(target_, reason_for(error, folder_of(target_)), false);
    }
    temp_.clear();
    sync_folder(folder_of(target_));
    return std::nullopt;
}

void PendingFile::discard() {
    close_descriptor();
    if (!temp_.empty()) ::unlink(std::exchange(temp_, {}).c_str());
}

namespace {

// Whether `folder` holds only files an earlier sequence left (or nothing).
bool holds_only_replaceable(const fs::path& folder, bool (*is_replaceable)(const std::string&)) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (!entry.is_regular_file(ec) || !is_replaceable(entry.path().filename().string())) return false;
    return !ec;
}

} // namespace

std::optional<std::string> output_folder_error(const std::string& path, bool (*is_replaceable)(const std::string&)) {
    if (path.empty()) return "cannot write a folder without a name";
    if (auto e = name_length_error(path)) return e;
    fs::path target = fs::path(path);
    if (!target.has_filename()) target = target.parent_path(); // "frames/"
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) return failure(path, "it is a file, not a folder", false);
        if (!holds_only_replaceable(target, is_replaceable))
            return failure(path, "the folder holds other files (kcanvas replaces only an earlier sequence)", false);
    }
    const fs::path folder = folder_of(target);
    if (::stat(folder.c_str(), &st) != 0) return failure(path, reason_for(errno, folder), false);
    if (!S_ISDIR(st.st_mode)) return failure(path, reason_for(ENOTDIR, folder), false);
    if (::access(folder.c_str(), W_OK) != 0) return failure(path, reason_for(errno, folder), false);
    return std::nullopt;
}

std::variant<PendingFolder, std::string> PendingFolder::create(const std::string& target) {
    fs::path t = fs::path(target);
    if (!t.has_filename()) t = t.parent_path();
    if (t.empty()) return std::string("cannot write a folder without a name");
    static std::atomic<unsigned> counter{0};
    const std::string stem = t.filename().string().substr(0, 100);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const fs::path temp = folder_of(t) / fmt::format(".{}.kcanvas-{}-{}.tmp", stem, ::getpid(), counter++);
        if (::mkdir(temp.c_str(), 0777) == 0) {
            PendingFolder folder;
            folder.target_ = t.string(), folder.temp_ = temp.string();
            return folder;
        }
        if (errno != EEXIST) return failure(target, reason_for(errno, folder_of(t)), false);
    }
    return failure(target, "no free temporary name", false);
}

PendingFolder::PendingFolder(PendingFolder&& other) noexcept
    : target_(std::move(other.target_)), temp_(std::exchange(other.temp_, {})) {}

PendingFolder& PendingFolder::operator=(PendingFolder&& other) noexcept {
    if (this != &other) {
        discard();
        target_ = std::move(other.target_), temp_ = std::exchange(other.temp_, {});
    }
    return *this;
}

PendingFolder::~PendingFolder() { discard(); }

void PendingFolder::discard() {
    std::error_code ec;
    if (!temp_.empty()) fs::remove_all(std::exchange(temp_, {}), ec);
}

std::optional<std::string> PendingFolder::commit(bool (*is_replaceable)(const std::string&)) {
    if (auto e = output_folder_error(target_, is_replaceable)) {
        discard();
        return e;
    }
    std::error_code ec;
    // An earlier sequence moves aside first, and goes once the new one has its name.
    fs::path old;
    if (fs::exists(target_, ec)) {
        old = fs::path(temp_ + ".old");
        if (::rename(target_.c_str(), old.c_str()) != 0) {
            const int error = errno;
            discard();
            return failure(target_, reason_for(error, folder_of(target_)), false);
        }
    }
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        const int error = errno;
        if (!old.empty()) ::rename(old.c_str(), target_.c_str()); // the earlier sequence back
        discard();
        return failure(target_, reason_for(error, folder_of(target_)), !old.empty());
    }
    temp_.clear();
    if (!old.empty()) fs::remove_all(old, ec);
    sync_folder(folder_of(target_));
    return std::nullopt;
}

} // namespace kc
