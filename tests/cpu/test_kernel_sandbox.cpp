// The kernel sandbox (issue 27): a kernel library run by kcanvas-kernel-host may compute and
// nothing else. A file write, a command, a socket or a fork ends the host with the call named and
// nothing happens outside; an endless loop is stopped by the watchdog within its limit; a crash is
// reported; after each the next frame paints. The library is built here with g++ from the text
// below: its paint does what `t` picks, so one build serves every case.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "sandbox/kernel_sandbox.h"
#include "tests/support/time_factor.h"

namespace kc::sandbox {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// t: 0 paints, 1 writes a file, 2 runs a command, 3 opens a socket, 4 forks, 5 loops forever,
// 6 writes through a bad pointer, 7 aborts, 8 paints on two threads of its own.
constexpr const char* kMisbehaving = R"(
#include <cstdio>
#include <string>
#include <cstdlib>
#include <fcntl.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
extern "C" void kc_sandbox_plain_paint(unsigned* out, int width, int height, float t) {
    const char* marker = std::getenv("KC_SANDBOX_MARKER");
    int behaviour = (int)t;
    if (behaviour == 1) { FILE* f = std::fopen(marker, "w"); if (f) { std::fputs("escaped", f); std::fclose(f); } }
    if (behaviour == 2) { std::string cmd = std::string("touch ") + marker; (void)!std::system(cmd.c_str()); }
    if (behaviour == 3) { int s = socket(AF_INET, SOCK_STREAM, 0); if (s >= 0) out[0] = 0xdeadu; }
    if (behaviour == 4) { if (fork() == 0) _exit(0); }
    if (behaviour == 5) { volatile unsigned spin = 0; for (;;) spin = spin + 1; }
    if (behaviour == 6) { *(volatile int*)16 = 1; }
    if (behaviour == 7) { std::abort(); }
    if (behaviour == 8) {
        std::thread half([&] { for (int i = 0; i < width * height / 2; ++i) out[i] = 0xff00ff00u; });
        for (int i = width * height / 2; i < width * height; ++i) out[i] = 0xff00ff00u;
        half.join();
        return;
    }
    for (int i = 0; i < width * height; ++i) out[i] = 0xff0000ffu + (unsigned)i;
}
)";

class KernelSandboxTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        setenv(kHostEnvForTests, KC_KERNEL_HOST, 1);
        dir_ = fs::path(::testing::TempDir()) / ("kc_sandbox_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        marker_ = dir_ / "escaped.txt";
        setenv("KC_SANDBOX_MARKER", marker_.c_str(), 1); // the host inherits kcanvas' environment
        std::ofstream(dir_ / "kernel.cpp") << kMisbehaving;
        so_ = dir_ / "kernel.so";
        const std::string cmd =
            "g++ -std=c++17 -O1 -shared -fPIC -o " + so_.string() + " " + (dir_ / "kernel.cpp").string() + " -pthread";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static constexpr const char* kHostEnvForTests = "KCANVAS_KERNEL_HOST";
    static inline fs::path dir_, marker_, so_;

    // Runs one 16x8 frame with behaviour `t`.
    std::optional<std::string> frame(KernelSandbox& sandbox, float t) {
        frame_pixels_.assign(16 * 8, Pixel{});
        SandboxFrame f;
        f.width = 16, f.height = 8, f.t = t;
        f.a = inputs_.data(), f.b = inputs_.data();
        return sandbox.run(f, frame_pixels_.data(), nullptr);
    }
    // The next frame paints: the sandbox is usable after whatever happened.
    void expect_next_frame_paints(KernelSandbox& sandbox) {
        EXPECT_EQ(frame(sandbox, 0.0f), std::nullopt);
        EXPECT_EQ(pack(frame_pixels_[3]), 0xff0000ffu + 3u);
    }
    std::vector<Pixel> inputs_ = std::vector<Pixel>(16 * 8);
    std::vector<Pixel> frame_pixels_;
};

TEST_F(KernelSandboxTest, PaintsFramesInTheChild) {
    KernelSandbox sandbox;
    ASSERT_EQ(sandbox.load(so_), std::nullopt);
    expect_next_frame_paints(sandbox);
    const pid_t host = sandbox.host_pid();
    EXPECT_GT(host, 0);
    expect_next_frame_paints(sandbox);
    EXPECT_EQ(sandbox.host_pid(), host) << "one host serves frame after frame";
}

TEST_F(KernelSandboxTest, ThreadsOfTheKernelMayRun) {
    KernelSandbox sandbox;
    ASSERT_EQ(sandbox.load(so_), std::nullopt);
    EXPECT_EQ(frame(sandbox, 8.0f), std::nullopt);
    EXPECT_EQ(pack(frame_pixels_[0]), 0xff00ff00u);
    EXPECT_EQ(pack(frame_pixels_.back()), 0xff00ff00u);
}

struct Refused {
    const char* what;
    float t;
    const char* call; // the call the report names
    friend void PrintTo(const Refused& r, std::ostream* os) { *os << r.what; }
};

class KernelSandboxRefuses : public KernelSandboxTest, public ::testing::WithParamInterface<Refused> {};

TEST_P(KernelSandboxRefuses, TheCallEndsOnlyTheHostAndNothingHappens) {
    fs::remove(marker_);
    KernelSandbox sandbox;
    ASSERT_EQ(sandbox.load(so_), std::nullopt);
    const std::optional<std::string> report = frame(sandbox, GetParam().t);
    EXPECT_FALSE(fs::exists(marker_)) << GetParam().what << " reached the disk";
    ASSERT_TRUE(report) << GetParam().what << " was not stopped";
    EXPECT_NE(report->find("the sandbox stopped your kernel"), std::string::npos) << *report;
    EXPECT_NE(report->find(std::string("called ") + GetParam().call), std::string::npos) << *report;
    expect_next_frame_paints(sandbox);
}

INSTANTIATE_TEST_SUITE_P(Calls, KernelSandboxRefuses,
                         ::testing::Values(Refused{"fopen", 1.0f, "openat"}, Refused{"system", 2.0f, "rt_sigaction"},
                                           Refused{"socket", 3.0f, "socket"}, Refused{"fork", 4.0f, "clone"}),
                         [](const auto& info) { return std::string(info.param.what); });

TEST_F(KernelSandboxTest, AnEndlessLoopIsStoppedWithinTheLimit) {
    const auto limit = 300ms * test::time_factor();
    KernelSandbox sandbox(limit);
    ASSERT_EQ(sandbox.load(so_), std::nullopt);
    const pid_t host = sandbox.host_pid();
    const auto start = std::chrono::steady_clock::now();
    auto pending = std::async(std::launch::async, [&] { return frame(sandbox, 5.0f); });
    if (pending.wait_for(limit + 5s) != std::future_status::ready) {
        ADD_FAILURE() << "the watchdog let the loop run past " << (limit + 5s).count() << " ms";
        kill(host, SIGKILL); // ends the frame, so the test does too
    }
    const std::optional<std::string> report = pending.get();
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(report);
    EXPECT_NE(report->find("ran past"), std::string::npos) << *report;
    EXPECT_NE(report->find("(an endless loop?): stopped"), std::string::npos) << *report;
    EXPECT_LT(took, limit + 1s);
    EXPECT_NE(kill(host, 0), 0) << "the looping host is gone";
    expect_next_frame_paints(sandbox);
}

TEST_F(KernelSandboxTest, ACrashIsReportedAndTheNextFramePaints) {
    KernelSandbox sandbox;
    ASSERT_EQ(sandbox.load(so_), std::nullopt);
    const std::optional<std::string> report = frame(sandbox, 6.0f);
    ASSERT_TRUE(report);
    EXPECT_EQ(*report, "your kernel crashed: touched memory it may not (SIGSEGV at 0x10)");
    expect_next_frame_paints(sandbox);
    const std::optional<std::string> aborted = frame(sandbox, 7.0f);
    ASSERT_TRUE(aborted);
    EXPECT_NE(aborted->find("your kernel crashed: aborted (SIGABRT"), std::string::npos) << *aborted;
    expect_next_frame_paints(sandbox);
}

TEST_F(KernelSandboxTest, AMissingHostIsNamed) {
    setenv(kHostEnvForTests, "/nonexistent/kcanvas-kernel-host", 1);
    KernelSandbox sandbox;
    const std::optional<std::string> why = sandbox.load(so_);
    setenv(kHostEnvForTests, KC_KERNEL_HOST, 1);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("/nonexistent/kcanvas-kernel-host"), std::string::npos) << *why;
}

TEST_F(KernelSandboxTest, ALibraryThatIsNoKernelIsRefused) {
    KernelSandbox sandbox;
    const std::optional<std::string> why = sandbox.load((dir_ / "kernel.cpp").string());
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cannot load the compiled kernel"), std::string::npos) << *why;
}

} // namespace
} // namespace kc::sandbox
