#include "app/core/file_chooser.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

extern char** environ;

namespace kc {

namespace fs = std::filesystem;

bool DesktopFileChooser::available() {
    static const bool found = [] {
        const char* path = std::getenv("PATH");
        std::stringstream dirs(path ? path : "");
        for (std::string dir; std::getline(dirs, dir, ':');)
            if (!dir.empty() && ::access((dir + "/zenity").c_str(), X_OK) == 0) return true;
        return false;
    }();
    return found;
}

std::optional<std::string> DesktopFileChooser::start(const std::string& title, const std::string& folder) {
    if (running()) return "the file chooser is open already";
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return std::string("cannot open the file chooser: ") + std::strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    // zenity asks for a file name ending in a slash to open in that folder.
    const std::string where = "--filename=" + (folder.empty() ? std::string() : folder + "/");
    const std::string window_title = "--title=" + title;
    const char* argv[] = {"zenity",
                          "--file-selection",
                          window_title.c_str(),
                          where.c_str(),
                          "--file-filter=Images | *.png *.jpg *.jpeg *.bmp *.tga *.PNG *.JPG *.JPEG *.BMP *.TGA",
                          "--file-filter=All files | *",
                          nullptr};
    pid_t pid = -1;
    const int error = ::posix_spawnp(&pid, "zenity", &actions, nullptr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (error != 0) {
        ::close(pipe_fds[0]);
        return std::string("cannot start zenity: ") + std::strerror(error);
    }
    ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    pid_ = pid, out_ = pipe_fds[0], printed_.clear();
    return std::nullopt;
}

std::optional<std::string> DesktopFileChooser::poll() {
    if (!running()) return std::nullopt;
    char buffer[4096];
    for (ssize_t n; (n = ::read(out_, buffer, sizeof buffer)) > 0;)
        if (printed_.size() < 65536) printed_.append(buffer, std::size_t(n)); // a path, not a stream
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    for (ssize_t n; (n = ::read(out_, buffer, sizeof buffer)) > 0;) printed_.append(buffer, std::size_t(n));
    ::close(out_);
    pid_ = -1, out_ = -1;
    while (!printed_.empty() && (printed_.back() == '\n' || printed_.back() == '\r')) printed_.pop_back();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || printed_.empty()) return std::nullopt; // cancelled
    return printed_;
}

void DesktopFileChooser::stop() {
    if (!running()) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    ::close(out_);
    pid_ = -1, out_ = -1;
}

DesktopFileChooser::~DesktopFileChooser() { stop(); }

bool has_image_extension(const std::string& name) {
    std::string ext = fs::path(name).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".tga";
}

FolderListing list_image_folder(const fs::path& folder, std::size_t limit) {
    FolderListing out;
    std::error_code ec;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        out.error = "cannot list '" + folder.string() + "': " + ec.message();
        return out;
    }
    std::size_t seen = 0;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.starts_with(".")) continue;
        if (++seen > limit) {
            out.cut_short = true;
            break;
        }
        if (it->is_directory(ec))
            out.folders.push_back(name);
        else if (has_image_extension(name))
            out.images.push_back(name);
    }
    std::sort(out.folders.begin(), out.folders.end());
    std::sort(out.images.begin(), out.images.end());
    return out;
}

} // namespace kc
