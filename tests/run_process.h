#pragma once
// Runs the kcanvas binary for the command-line and GUI tests; returns its exit code and output.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace kc::test {

struct ProcessResult {
    int exit_code = -1;
    std::string output; // stdout and stderr together
};

inline ProcessResult run(const std::string& args) {
    ProcessResult r;
    const std::string command = std::string(KCANVAS_BIN) + " " + args + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

} // namespace kc::test
