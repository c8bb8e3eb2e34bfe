// The window answers while the cpu backend paints a slow frame (issue 25): clicks are answered
// within a few of the window's short frames, while the canvas keeps the last finished picture
// and the status bar says a frame is painting.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "tests/support/gui_script.h"
#include "tests/support/time_factor.h"

namespace kc {
namespace {

using test::run_script;

// The times the script's `clock` lines printed, in milliseconds.
std::vector<double> clocks(const std::string& output) {
    std::vector<double> ms;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("clock: ")) ms.push_back(std::stod(line.substr(7)));
    return ms;
}

// How long the cpu backend takes for one frame of `flags` here, now: the headless median.
double cpu_frame_ms(const std::string& flags) {
    const auto r = test::run("--headless --backend cpu --frames 1 --json " + flags);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output.substr(r.output.find('{')));
    return json.at("kernel").at("median_us").get<double>() / 1000.0;
}

TEST(GuiResponsive, ClicksAreAnsweredWhileASlowCpuFramePaints) {
    // About a second a frame here; ASan's build is several times slower, so a smaller N does there.
    const std::string n = test::time_factor() > 1 ? "1024" : "2048";
    const std::string matmul = "--op matmul --matmul-n " + n;
    const double frame_ms = cpu_frame_ms("--size 200x200 " + matmul);
    std::string toggles;
    for (int i = 0; i < 1; ++i)
        toggles += "click Hide panel\nwait 2\nprint Show panel\nclick Show panel\nwait 2\nprint Hide panel\n";
    const auto run = run_script("kc_gui_responsive", "size 200x200\nop matmul\nmatmul-n " + n +
                                                         "\nwait 3\n"
                                                         "expect painting...\nclock\n" +
                                                         toggles + "clock\nexpect painting...\nquit\n");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.output;
    const std::vector<double> ms = clocks(run.result.output);
    ASSERT_EQ(ms.size(), 2u) << run.result.output;
    // Two clicks, each answered in the next frame or two, all within one slow frame (waiting for
    // the picture, each of the twelve frames they take would last as long as a whole one).
    EXPECT_LT(ms[1] - ms[0], frame_ms) << "two clicks took " << ms[1] - ms[0] << " ms; one frame of matmul " << frame_ms
                                       << " ms\n"
                                       << run.result.output;
}

} // namespace
} // namespace kc
