#pragma once
// Ends kcanvas with a message when frames stop finishing: a kernel that never returns, or a GPU that
// an earlier fault left hung (seen on the H200: the pixel-buffer path then waits forever). A process
// stuck for good is worse than an exit that says why; the user's kernel source is saved first.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace kc {

class Watchdog {
public:
    // `limit`: how long without beat() counts as stuck; zero turns the watchdog off.
    explicit Watchdog(std::chrono::milliseconds limit);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    void beat();                     // a frame (or a step of a measurement) finished
    void arm(bool on);               // off while no GPU work runs (the CPU backend may take long frames)
    void rescue(std::string source); // written to kcanvas-kernel-*.cu if the watchdog fires

private:
    void watch();
    static std::int64_t now_ns();

    const std::chrono::milliseconds limit_;
    std::atomic<std::int64_t> last_beat_ns_;
    std::atomic<bool> armed_{true};
    std::mutex mutex_; // guards rescue_ and stopping_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::string rescue_;
    std::thread thread_;
};

} // namespace kc
