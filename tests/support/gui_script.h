#pragma once
// Runs the real window (kcanvas --script FILE) for the gui tests and reads what it printed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/image_file.h"
#include "tests/support/run_process.h"

namespace kc::test {

struct ScriptRun {
    std::string dir; // the run's own folder: the script, and whatever the script saves
    ProcessResult result;
};

// Writes `script` into a fresh folder `name` under the test temp dir, with every "{dir}" replaced
// by that folder, and runs the window on it with `args` (the CPU backend by default).
inline ScriptRun run_script(const std::string& name, std::string script, const std::string& args = "--backend cpu") {
    ScriptRun out{::testing::TempDir() + "/" + name, {}};
    std::filesystem::remove_all(out.dir);
    std::filesystem::create_directories(out.dir);
    for (std::size_t at; (at = script.find("{dir}")) != std::string::npos;) script.replace(at, 5, out.dir);
    std::ofstream(out.dir + "/script.txt") << script;
    out.result = run(args + " --script " + out.dir + "/script.txt");
    return out;
}

// Whether the output holds this whole line.
inline bool has_line(const std::string& output, const std::string& line) {
    std::istringstream in(output);
    for (std::string l; std::getline(in, l);)
        if (l == line) return true;
    return false;
}

// The value a `print LABEL` line showed ("widget LABEL: VALUE"), or "" when there is none.
inline std::string printed_value(const std::string& output, const std::string& label) {
    const std::string key = "widget " + label + ": ";
    std::istringstream in(output);
    std::string value;
    for (std::string l; std::getline(in, l);)
        if (l.starts_with(key)) value = l.substr(key.size()); // the last one printed
    return value;
}

// The picture `kcanvas --headless --backend cpu --size SIZE <flags>` paints, saved as
// DIR/NAME-headless.png: the command line's independent path to what a window should show.
inline LoadedImage headless_picture(const std::string& dir, const std::string& name, const std::string& size,
                                    const std::string& flags) {
    const std::string path = dir + "/" + name + "-headless.png";
    const auto r = run("--headless --backend cpu --frames 2 --size " + size + " " + flags + " --out " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return load_png(path);
}

} // namespace kc::test

#define KC_SKIP_WITHOUT_DISPLAY()                                                                                      \
    if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display: run under xvfb-run (the test script does)"
