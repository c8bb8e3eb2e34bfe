#include "sandbox/kernel_sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sandbox/host_end.h"
#include "sandbox/host_path.h"

extern char** environ;

namespace kc::sandbox {

namespace {

// How long a host may take to load the kernel and confine itself.
constexpr std::chrono::milliseconds kStartLimit{10000};

std::size_t aligned(std::size_t bytes) { return (bytes + 63) / 64 * 64; }

SharedHeader& header(const SharedMemory& m) { return *reinterpret_cast<SharedHeader*>(m.data()); }

std::string seconds(std::chrono::milliseconds limit) { return fmt::format("{:g} s", limit.count() / 1000.0); }

// Where each buffer of `frame` lies in the shared memory, and the bytes it needs in all.
FrameCommand layout(const SandboxFrame& frame) {
    FrameCommand c{};
    c.magic = kMagic;
    const std::size_t pixels = std::size_t(frame.width) * frame.height;
    std::size_t at = aligned(sizeof(SharedHeader));
    auto place = [&](std::size_t bytes) { return std::exchange(at, at + aligned(bytes)); };
    c.out = place(pixels * sizeof(Pixel));
    c.a = place(pixels * sizeof(Pixel));
    c.b = place(pixels * sizeof(Pixel));
    if (frame.writers) {
        c.writers = place(pixels * sizeof(unsigned));
        c.block_sm = place(frame.blocks * sizeof(unsigned));
        c.blocks = frame.blocks;
    }
    c.shared_bytes = at;
    c.checked = frame.checked;
    c.grid[0] = frame.grid.x, c.grid[1] = frame.grid.y, c.grid[2] = frame.grid.z;
    c.block[0] = frame.block.x, c.block[1] = frame.block.y, c.block[2] = frame.block.z;
    c.width = frame.width, c.height = frame.height, c.t = frame.t;
    c.identity = frame.identity, c.max_blocks = frame.max_blocks;
    c.workers = frame.workers ? frame.workers : std::max(1u, std::thread::hardware_concurrency());
    return c;
}

// A descriptor moved out of the way of 3..5 (the spawn's dup2s must not overwrite each other).
int high_copy(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 10); }

bool send_all(int fd, const void* data, std::size_t bytes) {
    auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = send(fd, p, bytes, MSG_NOSIGNAL); // a dead host is no SIGPIPE for kcanvas
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n, bytes -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

KernelSandbox::KernelSandbox(std::chrono::milliseconds frame_limit) : limit_(frame_limit) {}

KernelSandbox::~KernelSandbox() { stop(); }

std::optional<std::string> KernelSandbox::load(const std::string& so_path) {
    stop();
    so_path_ = so_path;
    return start();
}

void KernelSandbox::stop() {
    if (command_fd_ >= 0) close(std::exchange(command_fd_, -1));
    if (reply_fd_ >= 0) close(std::exchange(reply_fd_, -1));
    if (pid_ > 0) {
        kill(pid_, SIGKILL); // closing the socket would end it too, but not one stuck in a frame
        while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
}

std::optional<std::string> KernelSandbox::start() {
    if (auto why = shared_.reserve(aligned(sizeof(SharedHeader)))) return why;
    std::memset(shared_.data(), 0, sizeof(SharedHeader));
    int commands[2], replies[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, commands) != 0)
        return std::string("cannot start the kernel sandbox: socketpair: ") + std::strerror(errno);
    if (pipe2(replies, O_CLOEXEC) != 0) {
        close(commands[0]), close(commands[1]);
        return std::string("cannot start the kernel sandbox: pipe: ") + std::strerror(errno);
    }
    const int child_fds[3] = {high_copy(shared_.fd()), high_copy(commands[1]), high_copy(replies[1])};
    close(commands[1]), close(replies[1]);
    command_fd_ = commands[0], reply_fd_ = replies[0];

    const std::string host = kernel_host_path();
    const std::string parent = std::to_string(getpid());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    // stdout and stderr are kcanvas': a kernel's printf shows where kcanvas' output does.
    for (int i = 0; i < 3; ++i) posix_spawn_file_actions_adddup2(&actions, child_fds[i], kSharedFd + i);
    posix_spawn_file_actions_addclosefrom_np(&actions, kResultFd + 1);
    std::vector<char*> argv{const_cast<char*>(host.c_str()), const_cast<char*>(so_path_.c_str()),
                            const_cast<char*>(parent.c_str()), nullptr};
    const int rc = posix_spawn(&pid_, host.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    for (int fd : child_fds) close(fd);
    if (rc != 0) {
        pid_ = -1;
        stop();
        return fmt::format("cannot start the kernel sandbox {}: {} (reinstall kcanvas, or name it in ${})", host,
                           std::strerror(rc), kHostEnv);
    }
    std::string message;
    if (auto why = await_reply(kStartLimit, message)) return why;
    if (!message.empty()) {
        stop();
        return message;
    }
    return std::nullopt;
}

// Waits for the host's reply; a host that ends or runs past `limit` is reaped and described.
std::optional<std::string> KernelSandbox::await_reply(std::chrono::milliseconds limit, std::string& message) {
    HostReply reply{};
    std::size_t got = 0;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (got < sizeof reply) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{reply_fd_, POLLIN, 0};
        const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count()) + 1) : 0;
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            stop();
            return fmt::format("your kernel ran past {} (an endless loop?): stopped", seconds(limit));
        }
        const ssize_t n = read(reply_fd_, reinterpret_cast<char*>(&reply) + got, sizeof reply - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int status = 0;
            while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
            pid_ = -1;
            const std::string why = describe_host_end(status, header(shared_).crash);
            stop();
            return why;
        }
        got += static_cast<std::size_t>(n);
    }
    if (reply.magic != kMagic) {
        stop();
        return std::string("the kernel sandbox answered in a form this kcanvas does not know: ") + kHostName +
               " is from another build";
    }
    reply.message[sizeof reply.message - 1] = '\0';
    message = reply.message;
    return std::nullopt;
}

std::optional<std::string> KernelSandbox::run(const SandboxFrame& frame, Pixel* out, KcViolation* violation) {
    if (!loaded()) return std::string("no kernel is loaded into the sandbox");
    if (pid_ < 0)
        if (auto why = start()) return why;
    const FrameCommand command = layout(frame);
    if (auto why = shared_.reserve(command.shared_bytes)) return why;
    std::byte* m = shared_.data();
    const std::size_t pixel_bytes = std::size_t(frame.width) * frame.height * sizeof(Pixel);
    std::memcpy(m + command.out, out, pixel_bytes);
    std::memcpy(m + command.a, frame.a, pixel_bytes);
    std::memcpy(m + command.b, frame.b, pixel_bytes);
    std::memset(&header(shared_).violation, 0, sizeof(KcViolation));
    if (frame.writers) std::memset(m + command.writers, 0, std::size_t(frame.width) * frame.height * sizeof(unsigned));
    if (!send_all(command_fd_, &command, sizeof command)) {
        stop();
        return std::string("the kernel sandbox ended before the frame started");
    }
    std::string message;
    if (auto why = await_reply(limit_, message)) return why;
    std::memcpy(out, m + command.out, pixel_bytes);
    if (violation) *violation = header(shared_).violation;
    if (frame.writers) {
        std::memcpy(frame.writers, m + command.writers, std::size_t(frame.width) * frame.height * sizeof(unsigned));
        std::memcpy(frame.block_sm, m + command.block_sm, frame.blocks * sizeof(unsigned));
    }
    if (!message.empty()) return message;
    return std::nullopt;
}

} // namespace kc::sandbox
