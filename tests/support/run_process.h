#pragma once
// Runs the kcanvas binary for the command-line and GUI tests; returns its exit code and output.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

// A data dir of this test process's own (kcanvas autosaves the kernel editor there and restores it
// at start), so tests neither touch the user's ~/.local/share nor see each other's autosaves.
inline std::string test_data_home() { return ::testing::TempDir() + "/kc_data_" + std::to_string(::getpid()); }

// The environment of a test's kcanvas: its own data dir, and a config dir of its own, so neither
// the user's imgui.ini nor their Pictures folder (xdg-user-dir reads user-dirs.dirs there) is used;
// and a cache of its own for the kernels compiled for the CPU.
inline std::string test_env(const std::string& data_home) {
    return "XDG_DATA_HOME='" + data_home + "' XDG_CONFIG_HOME='" + data_home + "/config' XDG_CACHE_HOME='" + data_home +
           "/cache' ";
}

// Runs kcanvas with these arguments, with XDG_DATA_HOME set to `data_home`.
inline ProcessResult run(const std::string& args, const std::string& data_home = test_data_home()) {
    return run_shell(test_env(data_home) + std::string(KCANVAS_BIN) + " " + args);
}

} // namespace kc::test
