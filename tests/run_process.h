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

// Runs a shell command line (stderr joined to stdout).
inline ProcessResult run_shell(const std::string& command_line) {
    ProcessResult r;
    const std::string command = "(" + command_line + ") 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

// Runs kcanvas with these arguments.
inline ProcessResult run(const std::string& args) { return run_shell(std::string(KCANVAS_BIN) + " " + args); }

} // namespace kc::test
