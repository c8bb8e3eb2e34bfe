#include "sandbox/shared_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace kc::sandbox {

SharedMemory::~SharedMemory() { release(); }

SharedMemory::SharedMemory(SharedMemory&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept {
    if (this != &other) {
        release();
        fd_ = std::exchange(other.fd_, -1);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void SharedMemory::release() {
    if (data_) munmap(data_, size_);
    if (fd_ >= 0) close(fd_);
    fd_ = -1, data_ = nullptr, size_ = 0;
}

std::optional<std::string> SharedMemory::reserve(std::size_t bytes) {
    if (bytes <= size_) return std::nullopt;
    if (fd_ < 0) fd_ = memfd_create("kcanvas-kernel-frame", MFD_CLOEXEC);
    if (fd_ < 0) return std::string("cannot make the kernel sandbox's shared memory: ") + std::strerror(errno);
    if (ftruncate(fd_, static_cast<off_t>(bytes)) != 0)
        return "cannot grow the kernel sandbox's shared memory to " + std::to_string(bytes) +
               " bytes: " + std::strerror(errno);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) return std::string("cannot map the kernel sandbox's shared memory: ") + std::strerror(errno);
    if (data_) munmap(data_, size_);
    data_ = static_cast<std::byte*>(p), size_ = bytes;
    return std::nullopt;
}

} // namespace kc::sandbox
