#include "sandbox/host_path.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace kc::sandbox {

std::string kernel_host_path() {
    if (const char* named = std::getenv(kHostEnv); named && *named) return named;
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return kHostName;
    return (self.parent_path() / kHostName).string();
}

} // namespace kc::sandbox
