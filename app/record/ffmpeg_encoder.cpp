// MP4 and WebM through the ffmpeg program: raw BGRA frames on its standard input, the file it
// writes a temporary beside the target, renamed into place once ffmpeg has exited cleanly.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "app/record/frame_encoder.h"
#include "render/io/atomic_file.h"

extern char** environ;

namespace kc {

namespace {

// SIGPIPE ignored while frames go to ffmpeg: an ffmpeg that dies makes write() fail, not kcanvas.
class IgnoredSigpipe {
public:
    IgnoredSigpipe() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ignore, &old_);
    }
    ~IgnoredSigpipe() { sigaction(SIGPIPE, &old_, nullptr); }
    IgnoredSigpipe(const IgnoredSigpipe&) = delete;
    IgnoredSigpipe& operator=(const IgnoredSigpipe&) = delete;

private:
    struct sigaction old_ {};
};

std::vector<std::string> ffmpeg_arguments(const std::string& program, const EncoderSettings& s, RecordFormat f,
                                          const std::string& out) {
    std::vector<std::string> a = {program, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo",
                                  "-pix_fmt", "bgra", "-s", fmt::format("{}x{}", s.width, s.height), "-framerate",
                                  fmt::format("{:g}", s.fps), "-i", "pipe:0",
                                  // yuv420p needs even sides: an odd one gets a copy of its last row or column
                                  "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"};
    if (f == RecordFormat::Mp4)
        a.insert(a.end(), {"-c:v", "libx264", "-preset", "fast", "-crf", "18", "-movflags", "+faststart", "-f", "mp4"});
    else
        a.insert(a.end(), {"-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "32", "-deadline", "realtime", "-cpu-used", "8",
                           "-row-mt", "1", "-f", "webm"});
    a.push_back(out);
    return a;
}

class FfmpegEncoder : public FrameEncoder {
public:
    FfmpegEncoder(const EncoderSettings& s, PendingFile file) : s_(s), file_(std::move(file)) {}
    ~FfmpegEncoder() override { stop(true); }
    std::optional<std::string> start(const std::string& program, RecordFormat f);
    std::optional<std::string> add(const std::vector<Pixel>& frame) override {
        if (frame.size() != std::size_t(s_.width) * s_.height) return "a recorded frame has the wrong size";
        const auto* bytes = reinterpret_cast<const char*>(frame.data());
        std::size_t left = frame.size() * sizeof(Pixel);
        while (left > 0) {
            const ssize_t n = ::write(pipe_, bytes, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return failed("ffmpeg stopped taking frames");
            bytes += n, left -= std::size_t(n);
        }
        return std::nullopt;
    }
    std::optional<std::string> finish() override {
        const int status = stop(false);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return failed("ffmpeg failed");
        if (auto e = check_result()) return failed(*e);
        return file_.commit();
    }

private:
    // Closes the pipe and waits for ffmpeg (killed first when `cancel`); returns its wait status.
    int stop(bool cancel) {
        if (pipe_ >= 0) ::close(std::exchange(pipe_, -1));
        int status = -1;
        if (pid_ > 0) {
            if (cancel) ::kill(pid_, SIGTERM);
            while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
            pid_ = -1;
        }
        return status;
    }
    // ffmpeg 5.1 exits 0 after "Error writing trailer ...: No space left on device", its file
    // unplayable: what it wrote is checked before it replaces anything. Why not, or nullopt.
    std::optional<std::string> check_result() {
        if (log_size() > 0) return "ffmpeg reported an error"; // -loglevel error: it logs nothing else
        struct stat st {};
        if (::stat(file_.temporary().c_str(), &st) != 0 || st.st_size == 0) return "ffmpeg wrote nothing";
        return probe_error();
    }
    // ffprobe, where installed, must read the file without an error.
    std::optional<std::string> probe_error() {
        const auto ffprobe = find_program("ffprobe");
        if (!ffprobe || !log_) return std::nullopt;
        const int status = run_logged({*ffprobe, "-v", "error", "-i", file_.temporary()});
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && log_size() == 0) return std::nullopt;
        return "ffprobe cannot read what ffmpeg wrote";
    }
    // Runs `args` to the end with stdout and stderr into the log; its wait status (-1: not started).
    int run_logged(const std::vector<std::string>& args) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, fileno(log_), 1);
        posix_spawn_file_actions_adddup2(&actions, fileno(log_), 2);
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        pid_t pid = -1;
        int status = -1;
        if (posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ) == 0)
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    // What ffmpeg (and ffprobe) wrote to the log, in bytes.
    long log_size() const {
        struct stat st {};
        return log_ && ::fstat(fileno(log_), &st) == 0 ? long(st.st_size) : 0;
    }
    // Why, with what ffmpeg said; the temporary goes.
    std::string failed(const std::string& what) {
        stop(true);
        std::string said;
        if (log_) {
            std::rewind(log_);
            char line[512];
            while (std::fgets(line, sizeof line, log_) && said.size() < 2000) said += line;
            std::fclose(std::exchange(log_, nullptr));
        }
        file_.discard();
        while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
        return fmt::format("cannot write '{}': {}{}", s_.path, what, said.empty() ? "" : ": " + said);
    }

    EncoderSettings s_;
    PendingFile file_;
    IgnoredSigpipe sigpipe_;
    FILE* log_ = nullptr; // ffmpeg's stderr
    int pipe_ = -1;
    pid_t pid_ = -1;
};

std::optional<std::string> FfmpegEncoder::start(const std::string& program, RecordFormat f) {
    file_.close_descriptor();
    log_ = std::tmpfile();
    int fds[2];
    if (!log_ || ::pipe2(fds, O_CLOEXEC) != 0)
        return failed(std::string("cannot start ffmpeg: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
    posix_spawn_file_actions_adddup2(&actions, fileno(log_), 1);
    posix_spawn_file_actions_adddup2(&actions, fileno(log_), 2);
    const std::vector<std::string> args = ffmpeg_arguments(program, s_, f, file_.temporary());
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    pipe_ = fds[1];
    if (spawned != 0) {
        pid_ = -1;
        return failed(fmt::format("cannot start {}: {}", program, std::strerror(spawned)));
    }
    return std::nullopt;
}

} // namespace

std::unique_ptr<FrameEncoder> open_ffmpeg_encoder(const EncoderSettings& s, RecordFormat f, std::string& error) {
    const auto program = find_ffmpeg();
    if (!program) {
        error = kNoFfmpeg;
        return nullptr;
    }
    auto file = PendingFile::create(s.path, f == RecordFormat::Mp4 ? ".mp4" : ".webm");
    if (auto* e = std::get_if<std::string>(&file)) {
        error = *e;
        return nullptr;
    }
    auto encoder = std::make_unique<FfmpegEncoder>(s, std::move(std::get<PendingFile>(file)));
    if (auto e = encoder->start(*program, f)) {
        error = *e;
        return nullptr;
    }
    return encoder;
}

} // namespace kc
