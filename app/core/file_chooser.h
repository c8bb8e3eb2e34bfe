#pragma once
// Choosing an input file: the desktop's own chooser (zenity) run as a child process that the frame
// loop polls, never waits for; and a folder's listing for the window's own small browser where
// there is no desktop chooser.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kc {

// `zenity --file-selection`, started by start() and read by poll() once a frame.
class DesktopFileChooser {
public:
    DesktopFileChooser() = default;
    DesktopFileChooser(const DesktopFileChooser&) = delete;
    DesktopFileChooser& operator=(const DesktopFileChooser&) = delete;
    ~DesktopFileChooser(); // a chooser still open is closed (SIGTERM) and reaped

    // Whether zenity is on PATH (looked up once).
    static bool available();
    // Opens the chooser in `folder` (empty: zenity's own choice); why it could not, or nullopt.
    std::optional<std::string> start(const std::string& title, const std::string& folder);
    bool running() const { return pid_ > 0; }
    // What the chooser printed so far, read without blocking; once it has closed, the chosen
    // path (nullopt while it is open, and after a cancel).
    std::optional<std::string> poll();

private:
    void stop();
    pid_t pid_ = -1;
    int out_ = -1; // the read end of its stdout
    std::string printed_;
};

// A folder's subfolders and image files (by extension: .png .jpg .jpeg .bmp .tga), sorted, hidden
// ones left out, at most `limit` entries in all; `error` says why it could not be read.
struct FolderListing {
    std::vector<std::string> folders, images;
    bool cut_short = false; // more than `limit` entries
    std::string error;
};
FolderListing list_image_folder(const std::filesystem::path& folder, std::size_t limit = 2000);

// Whether the name ends in an image extension kcanvas reads (case-insensitive).
bool has_image_extension(const std::string& name);

} // namespace kc
