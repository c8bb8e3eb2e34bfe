#include "render/io/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "render/io/quoted.h"

namespace kc {

namespace {

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "it is a directory";
    if (S_ISFIFO(mode)) return "not a regular file (a FIFO)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "not a regular file (a device)";
    if (S_ISSOCK(mode)) return "not a regular file (a socket)";
    return "not a regular file";
}

// Closes the descriptor on every way out.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

std::optional<std::string> read_bounded_file(const std::string& path, std::size_t max_bytes, const std::string& what,
                                             std::string& text) {
    const std::string name = quoted(path, 200);
    // O_NONBLOCK: opening a FIFO with no writer would block; the fstat below refuses it anyway.
    const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) return fmt::format("cannot read {}: {}", name, std::strerror(errno));
    struct stat st {};
    if (::fstat(file.fd, &st) != 0) return fmt::format("cannot read {}: {}", name, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return fmt::format("cannot read {}: {}", name, kind_of(st.st_mode));
    const auto too_big = [&](std::size_t bytes) {
        return fmt::format("cannot read {}: {} bytes, over the {} bytes {} may hold", name, bytes, max_bytes, what);
    };
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return too_big(static_cast<std::size_t>(st.st_size));
    // The file may grow while it is read: never take more than max_bytes + 1.
    std::string bytes(static_cast<std::size_t>(st.st_size) + 1, '\0');
    std::size_t got = 0;
    while (got <= max_bytes) {
        if (got == bytes.size()) bytes.resize(std::min(bytes.size() * 2, max_bytes + 1));
        const ssize_t n = ::read(file.fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fmt::format("cannot read {}: {}", name, std::strerror(errno));
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    if (got > max_bytes) return too_big(got);
    bytes.resize(got);
    text = std::move(bytes);
    return std::nullopt;
}

} // namespace kc
