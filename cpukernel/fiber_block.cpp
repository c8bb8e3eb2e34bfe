#include "cpukernel/fiber_block.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>
#include <utility>

namespace kc {

namespace {

// A fiber's stack: 256 KiB (a GPU thread has 1 KiB by default, up to 512 KiB of local memory),
// reserved, not committed: a thread touches a page or two. Under it a guard page, so that a kernel
// that overflows it stops at a fault instead of writing another fiber's stack (the kernel is
// compiled with -fstack-clash-protection, so a big local array cannot jump over the guard).
constexpr std::size_t kStackBytes = 256 * 1024;

thread_local FiberBlockRunner* t_runner = nullptr;
thread_local FiberBlockRunner::Fiber* t_starting = nullptr;
thread_local int t_stray_barrier = 0;

std::string coords(KcCpuDim d) {
    return d.z ? fmt::format("({},{},{})", d.x, d.y, d.z) : fmt::format("({},{})", d.x, d.y);
}

KcCpuDim thread_coords(unsigned k, KcCpuDim b) { return KcCpuDim{k % b.x, k / b.x % b.y, k / (b.x * b.y)}; }

// "(0,0), (1,0), (2,0) and 125 more"
std::string some_threads(const std::vector<unsigned>& threads, KcCpuDim block_dim) {
    std::string s;
    const std::size_t shown = threads.size() < 3 ? threads.size() : 3;
    for (std::size_t k = 0; k < shown; ++k) s += (k ? ", " : "") + coords(thread_coords(threads[k], block_dim));
    if (threads.size() > shown) s += fmt::format(" and {} more", threads.size() - shown);
    return s;
}

} // namespace

struct FiberBlockRunner::Fiber {
    void* mapping = nullptr;
    FiberContext context;
    bool ended = false;
    int line = 0; // the barrier it waits at

    Fiber() {
        mapping = mmap(nullptr, kStackBytes + page(), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mapping == MAP_FAILED) throw std::runtime_error("no memory for a fiber's stack");
        mprotect(mapping, page(), PROT_NONE);
        reset();
    }
    ~Fiber() { munmap(mapping, kStackBytes + page()); }
    static std::size_t page() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

    // Ready to run a thread from its start (a fiber abandoned inside a thread starts afresh).
    void reset() { make_fiber_context(context, static_cast<char*>(mapping) + page(), kStackBytes, &Fiber::main); }

    // The fiber's whole life: run a thread, say it ended, wait to be switched to for the next.
    static void main() {
        Fiber* self = t_starting;
        fiber_started(t_runner->home_);
        for (;;) {
            t_runner->run_thread_();
            self->ended = true;
            switch_fiber_context(self->context, t_runner->home_, &t_runner->home_);
        }
    }
};

FiberBlockRunner::FiberBlockRunner() = default;
FiberBlockRunner::~FiberBlockRunner() = default;

FiberBlockRunner::Fiber& FiberBlockRunner::idle_fiber() {
    if (free_.empty()) {
        fibers_.push_back(std::make_unique<Fiber>());
        free_.push_back(fibers_.back().get());
    }
    Fiber* f = free_.back();
    free_.pop_back();
    return *f;
}

void FiberBlockRunner::reserve(unsigned fibers) {
    while (fibers_.size() < fibers) {
        fibers_.push_back(std::make_unique<Fiber>());
        free_.push_back(fibers_.back().get());
    }
}

void FiberBlockRunner::switch_to(Fiber& f) {
    current_ = &f;
    t_runner = this, t_starting = &f;
    switch_fiber_context(home_, f.context);
    current_ = nullptr;
    t_runner = nullptr; // a barrier off the fibers must not find this runner once it is gone
}

int FiberBlockRunner::barrier(int line, int predicate) {
    FiberBlockRunner* r = t_runner;
    Fiber* f = r ? r->current_ : nullptr;
    if (!f) { // not on a fiber: nothing to suspend; run() reports it
        if (!t_stray_barrier) t_stray_barrier = line;
        return 0;
    }
    f->line = line;
    r->pending_total_ += predicate;
    switch_fiber_context(f->context, r->home_, &r->home_);
    return t_runner->released_total_;
}

int FiberBlockRunner::take_stray_barrier() { return std::exchange(t_stray_barrier, 0); }

std::optional<std::string> FiberBlockRunner::run(KcCpuThreadState* state, KcCpuDim block_dim, void (*run_thread)()) {
    run_thread_ = run_thread;
    const unsigned n = block_dim.x * block_dim.y * block_dim.z;
    // The lists live in the runner, so a block allocates nothing once the first has grown them.
    std::vector<Fiber*>& fiber_of = fiber_of_;
    std::vector<unsigned>&runnable = runnable_, &waiting = waiting_, &ended = ended_;
    std::vector<int>& lines = lines_;
    fiber_of.assign(n, nullptr);
    runnable.resize(n);
    for (unsigned k = 0; k < n; ++k) runnable[k] = k;
    pending_total_ = released_total_ = 0;
    for (;;) {
        waiting.clear(), ended.clear();
        for (unsigned k : runnable) {
            state->thread_idx = thread_coords(k, block_dim);
            if (!fiber_of[k]) fiber_of[k] = &idle_fiber(), fiber_of[k]->ended = false;
            switch_to(*fiber_of[k]);
            if (fiber_of[k]->ended) {
                free_.push_back(fiber_of[k]), ended.push_back(k);
                fiber_of[k] = nullptr;
            } else {
                waiting.push_back(k);
            }
        }
        if (waiting.empty()) return std::nullopt;
        lines.clear();
        for (unsigned k : waiting) lines.push_back(fiber_of[k]->line);
        std::optional<std::string> why = divergence(block_dim, state->block_idx, waiting, lines, ended);
        if (why) {
            for (unsigned k : waiting) fiber_of[k]->reset(), free_.push_back(fiber_of[k]); // abandoned mid-thread
            return why;
        }
        released_total_ = pending_total_, pending_total_ = 0;
        runnable.swap(waiting);
    }
}

std::optional<std::string> FiberBlockRunner::divergence(KcCpuDim block_dim, KcCpuDim block_idx,
                                                        const std::vector<unsigned>& waiting,
                                                        const std::vector<int>& lines,
                                                        const std::vector<unsigned>& ended) {
    const unsigned n = block_dim.x * block_dim.y * block_dim.z;
    for (std::size_t k = 1; k < waiting.size(); ++k)
        if (lines[k] != lines[0])
            return fmt::format("block {}: its threads wait at different barriers: thread {} at the __syncthreads() "
                               "of line {}, thread {} at line {}; every thread of a block must reach the same "
                               "__syncthreads() in the same order",
                               coords(block_idx), coords(thread_coords(waiting[0], block_dim)), lines[0],
                               coords(thread_coords(waiting[k], block_dim)), lines[k]);
    if (ended.empty()) return std::nullopt;
    return fmt::format("block {}: {} of its {} threads reached the __syncthreads() of line {} (threads {}), but {} "
                       "returned without reaching it (threads {}), so it could never be passed: every thread of a "
                       "block must reach each __syncthreads()",
                       coords(block_idx), waiting.size(), n, lines[0], some_threads(waiting, block_dim), ended.size(),
                       some_threads(ended, block_dim));
}

} // namespace kc
