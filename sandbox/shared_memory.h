#pragma once
// The memory kcanvas and its kernel host share: an anonymous memfd (no name in any file system),
// mapped read-write here and passed to the host by descriptor. Move-only; grows, never shrinks.
#include <cstddef>
#include <optional>
#include <string>

namespace kc::sandbox {

class SharedMemory {
public:
    SharedMemory() = default;
    ~SharedMemory();
    SharedMemory(SharedMemory&& other) noexcept;
    SharedMemory& operator=(SharedMemory&& other) noexcept;
    SharedMemory(const SharedMemory&) = delete;
    SharedMemory& operator=(const SharedMemory&) = delete;

    // Makes it at least `bytes` long (the contents up to the old size stay); why not, or nullopt.
    std::optional<std::string> reserve(std::size_t bytes);
    std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }
    int fd() const { return fd_; }

private:
    void release();
    int fd_ = -1;
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace kc::sandbox
