// The watchdog: silence past its limit ends the process with a message (and the rescued source
// saved), beats or disarming keep it quiet. Death tests run each case in a child process.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "app/core/watchdog.h"

namespace kc {
namespace {

using namespace std::chrono_literals;

TEST(WatchdogDeathTest, SilencePastTheLimitExitsWithAMessage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            Watchdog w(200ms);
            std::this_thread::sleep_for(5s); // a frame that never finishes
        },
        ::testing::ExitedWithCode(1), "nothing finished on the GPU for 0 s: it is not responding");
}

TEST(WatchdogDeathTest, TheRescuedSourceIsSavedBeforeTheExit) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string dir = ::testing::TempDir() + "/kc_watchdog";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string source = "extern \"C\" __global__ void paint() { for (;;) {} }\n";
    EXPECT_EXIT(
        {
            ::setenv("XDG_DATA_HOME", dir.c_str(), 1); // rescued into <data dir>/rescued
            Watchdog w(200ms);
            w.rescue(source);
            std::this_thread::sleep_for(5s);
        },
        ::testing::ExitedWithCode(1), "your kernel's source is saved in .*kcanvas-kernel-.*\\.cu");
    int saved = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir + "/kcanvas/rescued")) {
        std::ifstream in(entry.path());
        EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), source);
        ++saved;
    }
    EXPECT_EQ(saved, 1);
}

TEST(Watchdog, BeatsKeepItQuiet) {
    Watchdog w(300ms);
    for (int i = 0; i < 20; ++i) { // 1 s in all, three times the limit
        std::this_thread::sleep_for(50ms);
        w.beat();
    }
    SUCCEED(); // still running: it did not fire
}

TEST(Watchdog, DisarmedItWaitsAndRearmingStartsTheClockAgain) {
    Watchdog w(300ms);
    w.arm(false);
    std::this_thread::sleep_for(900ms); // a long CPU-emulator frame
    w.arm(true);                        // must not fire for the time spent disarmed
    std::this_thread::sleep_for(150ms);
    w.beat();
    SUCCEED();
}

TEST(Watchdog, ZeroTurnsItOff) {
    Watchdog w(0ms);
    std::this_thread::sleep_for(400ms);
    SUCCEED();
}

} // namespace
} // namespace kc
