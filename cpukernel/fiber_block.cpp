// _FORTIFY_SOURCE's longjmp refuses to jump to another stack; these jumps are between fibers.
#undef _FORTIFY_SOURCE
#include "cpukernel/fiber_block.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <stdexcept>

namespace kc {

namespace {

// A fiber's stack: 64 KiB (a GPU thread has 1 KiB by default) above a guard page, so that a kernel
// that overflows it stops at a fault instead of writing another fiber's stack.
constexpr std::size_t kStackBytes = 64 * 1024;

thread_local FiberBlockRunner* t_runner = nullptr;
thread_local FiberBlockRunner::Fiber* t_starting = nullptr;

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
    ucontext_t context{};
    jmp_buf idle;      // the top of its loop: jumped to to run a thread from its start
    jmp_buf suspended; // inside __syncthreads(): jumped to to resume the thread
    bool ended = false;
    int line = 0; // the barrier it waits at

    Fiber() {
        const long page = sysconf(_SC_PAGESIZE);
        mapping = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (mapping == MAP_FAILED) throw std::runtime_error("no memory for a fiber's stack");
        mprotect(mapping, page, PROT_NONE);
        getcontext(&context);
        context.uc_stack.ss_sp = static_cast<char*>(mapping) + page;
        context.uc_stack.ss_size = kStackBytes;
        context.uc_link = nullptr;
        makecontext(&context, &Fiber::main, 0);
    }
    ~Fiber() { munmap(mapping, kStackBytes + sysconf(_SC_PAGESIZE)); }

    // The fiber's whole life: wait at `idle`, run a thread, say it ended, wait again.
    static void main() {
        Fiber* self = t_starting;
        FiberBlockRunner* runner = t_runner;
        if (_setjmp(self->idle) == 0) _longjmp(runner->home_, 1); // started: back to its creator
        for (;;) {
            t_runner->run_thread_();
            self->ended = true;
            if (_setjmp(self->idle) == 0) _longjmp(t_runner->home_, 1);
        }
    }
};

FiberBlockRunner::FiberBlockRunner() = default;
FiberBlockRunner::~FiberBlockRunner() = default;

FiberBlockRunner::Fiber& FiberBlockRunner::idle_fiber() {
    if (free_.empty()) {
        fibers_.push_back(std::make_unique<Fiber>());
        Fiber* f = fibers_.back().get();
        t_runner = this, t_starting = f;
        if (_setjmp(home_) == 0) setcontext(&f->context); // runs to its `idle` and jumps back
        free_.push_back(f);
    }
    Fiber* f = free_.back();
    free_.pop_back();
    return *f;
}

void FiberBlockRunner::reserve(unsigned fibers) {
    std::vector<Fiber*> taken;
    while (fibers_.size() < fibers) taken.push_back(&idle_fiber());
    for (Fiber* f : taken) free_.push_back(f);
}

void FiberBlockRunner::switch_to(Fiber& f, bool start) {
    current_ = &f;
    t_runner = this;
    if (_setjmp(home_) == 0) _longjmp(start ? f.idle : f.suspended, 1);
    current_ = nullptr;
}

int FiberBlockRunner::barrier(int line, int predicate) {
    FiberBlockRunner* r = t_runner;
    Fiber* f = r ? r->current_ : nullptr;
    if (!f) return 0; // not on a fiber: run() never calls a kernel that way
    f->line = line;
    r->pending_total_ += predicate;
    if (_setjmp(f->suspended) == 0) _longjmp(r->home_, 1);
    return t_runner->released_total_;
}

std::optional<std::string> FiberBlockRunner::run(KcCpuThreadState* state, KcCpuDim block_dim, void (*run_thread)()) {
    run_thread_ = run_thread;
    const unsigned n = block_dim.x * block_dim.y * block_dim.z;
    std::vector<Fiber*> fiber_of(n, nullptr);
    std::vector<unsigned> runnable(n), waiting, ended;
    std::vector<int> lines;
    for (unsigned k = 0; k < n; ++k) runnable[k] = k;
    pending_total_ = released_total_ = 0;
    for (;;) {
        waiting.clear(), ended.clear();
        for (unsigned k : runnable) {
            state->thread_idx = thread_coords(k, block_dim);
            const bool start = !fiber_of[k];
            if (start) fiber_of[k] = &idle_fiber(), fiber_of[k]->ended = false;
            switch_to(*fiber_of[k], start);
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
            for (unsigned k : waiting) free_.push_back(fiber_of[k]); // abandoned mid-thread; `idle` restarts them
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
