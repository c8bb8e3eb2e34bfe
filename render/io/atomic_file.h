#pragma once
// Writing a whole file so that a failure (a full disk, a missing folder, no permission) never
// leaves a broken or half-written file behind: the bytes go to a temporary file in the same folder,
// every write, the fsync and the close are checked, and only then is it renamed over the target.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace kc {

// Writes `bytes` to `path`, replacing the file there only when every byte reached the disk. On
// failure the old file (if any) is as it was, no temporary is left, and the result says why, e.g.
// "cannot write 'x.png': disk full (the existing file is unchanged)".
std::optional<std::string> write_file_atomically(const std::string& path, std::span<const std::byte> bytes);
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text);

// Whether a file could be created at `path` at all: its name fits (NAME_MAX, PATH_MAX), its folder
// exists, is a folder and is writable, and `path` is not a folder itself. Lets the command line
// refuse before hours of work; the write itself still checks everything.
std::optional<std::string> output_path_error(const std::string& path);

// Why kcanvas does not replace `path` unasked: it is a file its owner made read-only (no write
// permission, e.g. mode 0444), which `cp` also refuses to replace without -f. nullopt otherwise.
std::optional<std::string> read_only_error(const std::string& path);

// A file made piece by piece (a recording): the pieces go to a temporary file beside `target`,
// which commit() syncs and renames over it once complete. Destroyed uncommitted (a failure, a
// cancel), the temporary is removed: no half-written file is ever left under the target's name.
class PendingFile {
public:
    // Creates the temporary, named ".<target's name>.kcanvas-PID-N<suffix>" in the same folder.
    static std::variant<PendingFile, std::string> create(const std::string& target, std::string_view suffix = ".tmp");
    PendingFile(PendingFile&& other) noexcept;
    PendingFile& operator=(PendingFile&& other) noexcept;
    PendingFile(const PendingFile&) = delete;
    PendingFile& operator=(const PendingFile&) = delete;
    ~PendingFile();

    const std::string& temporary() const { return temp_; }
    const std::string& target() const { return target_; }
    std::optional<std::string> write(std::span<const std::byte> bytes); // "cannot write 'x.gif': disk full"
    // For writers that open the temporary by name themselves (ffmpeg): closes kcanvas' descriptor.
    void close_descriptor();
    std::optional<std::string> commit(); // after it the temporary is gone, whatever it returns
    void discard();                      // removes the temporary now

private:
    PendingFile() = default;
    std::string target_, temp_;
    int fd_ = -1;
};

// A folder made file by file (a PNG sequence), with the same promise: the files go to a temporary
// folder beside `target`, renamed to it by commit(). An existing `target` is replaced only when it
// is empty or holds nothing but an earlier sequence (files named by `is_replaceable`).
class PendingFolder {
public:
    static std::variant<PendingFolder, std::string> create(const std::string& target);
    PendingFolder(PendingFolder&& other) noexcept;
    PendingFolder& operator=(PendingFolder&& other) noexcept;
    PendingFolder(const PendingFolder&) = delete;
    PendingFolder& operator=(const PendingFolder&) = delete;
    ~PendingFolder();

    const std::string& temporary() const { return temp_; }
    std::optional<std::string> commit(bool (*is_replaceable)(const std::string& file_name));
    void discard();

private:
    PendingFolder() = default;
    std::string target_, temp_;
};

// Why `path` cannot become a folder of files: its parent folder is missing or read-only, or it
// exists and is a file. `is_replaceable` as for PendingFolder::commit.
std::optional<std::string> output_folder_error(const std::string& path,
                                               bool (*is_replaceable)(const std::string& file_name));

} // namespace kc
