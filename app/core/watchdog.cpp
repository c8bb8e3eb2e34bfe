#include "app/core/watchdog.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "app/core/kernel_files.h"

namespace kc {

Watchdog::Watchdog(std::chrono::milliseconds limit) : limit_(limit), last_beat_ns_(now_ns()) {
    if (limit_.count() > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::int64_t Watchdog::now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void Watchdog::beat() { last_beat_ns_.store(now_ns(), std::memory_order_relaxed); }

void Watchdog::arm(bool on) {
    if (on && !armed_.load()) beat(); // the time spent disarmed does not count
    armed_.store(on);
}

void Watchdog::rescue(std::string source) {
    std::lock_guard lock(mutex_);
    rescue_ = std::move(source);
}

void Watchdog::watch() {
    const auto poll =
        std::min<std::chrono::milliseconds>(limit_ / 4 + std::chrono::milliseconds(1), std::chrono::seconds(1));
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, poll, [this] { return stopping_; })) {
        const std::int64_t idle_ns = now_ns() - last_beat_ns_.load(std::memory_order_relaxed);
        if (!armed_.load() || idle_ns < std::chrono::nanoseconds(limit_).count()) continue;
        // The main thread is stuck in a CUDA or GL call that will not return: say why and end the
        // process from here (no destructors: they would wait on the same GPU).
        const std::string saved = rescue_.empty() ? "" : save_faulted_kernel(rescue_) + "\n";
        fmt::print(stderr,
                   "kcanvas: nothing finished on the GPU for {:.0f} s: it is not responding (a kernel that never ends, "
                   "or a GPU left hung by an earlier fault).\n{}kcanvas exits; start it again "
                   "(--watchdog 0 turns this check off).\n",
                   idle_ns / 1e9, saved);
        std::fflush(stderr);
        std::_Exit(1);
    }
}

} // namespace kc
