// A window whose picture does not move waits for input instead of drawing the same frame as fast
// as it can (issue 25: a static gradient kept a whole core busy), and still answers a click at
// once. The script's `idle S` lets the window run as without a script; this test measures the
// process' CPU time from /proc meanwhile, then clicks a checkbox with real X events (sent to the
// window, as the X server sends a hand's) and watches the window's pixels for the tick.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/gui_script.h"
#include "tests/support/time_factor.h"

// Xlib last: its macros (None, Bool, Status) break headers read after it.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

namespace kc {
namespace {

using Clock = std::chrono::steady_clock;

// kcanvas running a script in the background, its output going to a file.
struct Background {
    pid_t pid = -1;
    std::string output_path;
    std::string output() const {
        std::ifstream in(output_path);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    // Waits up to `patience` for the output to hold `text`.
    bool wait_for(const std::string& text, std::chrono::seconds patience) const {
        for (const auto end = Clock::now() + patience; Clock::now() < end;) {
            if (output().find(text) != std::string::npos) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }
    int exit_code() {
        int status = 0;
        if (pid > 0 && waitpid(pid, &status, 0) == pid) pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    ~Background() {
        if (pid > 0) kill(pid, SIGTERM), waitpid(pid, nullptr, 0);
    }
};

Background start(const std::string& dir, const std::string& script) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/script.txt") << script;
    Background b{-1, dir + "/output.txt"};
    const std::string command = test::test_env(test::test_data_home()) + "exec " + std::string(KCANVAS_BIN) +
                                " --backend cpu --script " + dir + "/script.txt > " + b.output_path + " 2>&1";
    b.pid = fork();
    if (b.pid == 0) {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return b;
}

// The process' CPU time so far (user and system), from /proc/PID/stat.
double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), {});
    std::istringstream fields(stat.substr(stat.rfind(')') + 2)); // the name may hold spaces
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.size() < 13) return 0;
    return double(std::stoll(f[11]) + std::stoll(f[12])) / double(sysconf(_SC_CLK_TCK)); // utime, stime
}

// The top-level window named `name`, or 0.
Window find_window(Display* d, Window w, const std::string& name) {
    char* title = nullptr;
    if (XFetchName(d, w, &title) && title) {
        const bool found = name == title;
        XFree(title);
        if (found) return w;
    }
    Window root = 0, parent = 0, *children = nullptr;
    unsigned n = 0;
    Window hit = 0;
    if (XQueryTree(d, w, &root, &parent, &children, &n)) {
        for (unsigned i = 0; i < n && !hit; ++i) hit = find_window(d, children[i], name);
        if (children) XFree(children);
    }
    return hit;
}

// A pointer move, then a press and release of the left button, as the X server reports a hand's.
void click(Display* d, Window w, int x, int y) {
    XEvent e{};
    e.xmotion = {MotionNotify, 0,   True, d, w, DefaultRootWindow(d), None, CurrentTime, x, y, x, y, 0,
                 NotifyNormal, True};
    XSendEvent(d, w, True, PointerMotionMask, &e);
    e = {};
    e.xbutton = {ButtonPress, 0, True, d, w, DefaultRootWindow(d), None, CurrentTime, x, y, x, y, 0, Button1, True};
    XSendEvent(d, w, True, ButtonPressMask, &e);
    XFlush(d);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    e.xbutton.type = ButtonRelease;
    e.xbutton.state = Button1Mask;
    XSendEvent(d, w, True, ButtonReleaseMask, &e);
    XFlush(d);
}

std::vector<char> pixels(Display* d, Window w, int x, int y, int width, int height) {
    XImage* image = XGetImage(d, w, x, y, unsigned(width), unsigned(height), AllPlanes, ZPixmap);
    if (!image) return {};
    std::vector<char> out(image->data, image->data + std::size_t(image->bytes_per_line) * height);
    XDestroyImage(image);
    return out;
}

TEST(GuiIdle, AStaticPictureWaitsForInputAndAClickIsAnsweredAtOnce) {
    KC_SKIP_WITHOUT_DISPLAY();
    constexpr double kMeasured = 3.0; // seconds of CPU time measured while idle
    // A busy loop takes a whole core (100 %), or its share of two on a loaded CI machine; waiting
    // for input, the window draws four frames a second of a small canvas: a few percent.
    const double most_percent = 15.0 * test::time_factor(); // ASan's frames cost more of a core
    const double most_answer_ms = 100.0 * test::time_factor();
    Background app = start(::testing::TempDir() + "/kc_gui_idle",
                           "size 160x100\nwait 3\nwhere Auto grid\nidle 14\nprint Auto grid\nquit\n");
    ASSERT_TRUE(app.wait_for("script: idle", std::chrono::seconds(60))) << app.output();
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the frames after the last input
    const double cpu0 = cpu_seconds(app.pid);
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(kMeasured));
    const double percent =
        100.0 * (cpu_seconds(app.pid) - cpu0) / std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("idle: %.1f %% of a core\n", percent);
    EXPECT_LT(percent, most_percent) << "a static window keeps drawing";

    // The checkbox, clicked while the window waits: its tick comes and goes within a few frames, not
    // the idle refresh (of a loop that slept instead of waiting for input, the middle of five
    // answers would take more than 100 ms nine times in ten).
    const std::string key = "where Auto grid: ";
    const std::string out = app.output();
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    ASSERT_EQ(std::sscanf(out.c_str() + out.find(key) + key.size(), "%d,%d %d,%d", &x0, &y0, &x1, &y1), 4) << out;
    Display* d = XOpenDisplay(nullptr);
    ASSERT_NE(d, nullptr);
    const Window w = find_window(d, DefaultRootWindow(d), "Kernel Canvas");
    ASSERT_NE(w, 0u);
    const int box = y1 - y0; // the square at the item's left
    std::vector<double> answers_ms;
    for (int i = 0; i < 5; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(400)); // the window waits again
        const std::vector<char> before = pixels(d, w, x0, y0, box, box);
        ASSERT_FALSE(before.empty());
        const auto clicked = Clock::now();
        click(d, w, x0 + box / 2, (y0 + y1) / 2);
        bool changed = false;
        while (!changed && Clock::now() - clicked < std::chrono::seconds(2)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            changed = pixels(d, w, x0, y0, box, box) != before;
        }
        ASSERT_TRUE(changed) << "click " << i + 1 << " did not change the checkbox";
        answers_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - clicked).count());
        std::printf("click %d answered in %.0f ms\n", i + 1, answers_ms.back());
    }
    XCloseDisplay(d);
    std::sort(answers_ms.begin(), answers_ms.end());
    EXPECT_LT(answers_ms[2], most_answer_ms) << "clicks waited for the idle refresh";
    EXPECT_EQ(app.exit_code(), 0) << app.output();
    EXPECT_TRUE(test::has_line(app.output(), "widget Auto grid: off")) << app.output();
}

} // namespace
} // namespace kc
