#pragma once
// One worker's way of running a block whose kernel has barriers: its threads one after another,
// each on a fiber (a stack of its own) that __syncthreads() suspends until every thread of the
// block has arrived. A thread that ends frees its fiber for the next, so a block whose threads
// reach no barrier uses one fiber (HIP-CPU's lazy fibers); fibers and their stacks are kept for
// the worker's next blocks. Switching is cpukernel/fiber_switch.h's (no system call).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpukernel/fiber_switch.h"
#include "gpu/prelude/kcanvas_check_abi.h"
#include "gpu/prelude/kcanvas_cpu_abi.h"

namespace kc {

class FiberBlockRunner {
public:
    FiberBlockRunner();
    ~FiberBlockRunner();
    FiberBlockRunner(const FiberBlockRunner&) = delete;
    FiberBlockRunner& operator=(const FiberBlockRunner&) = delete;

    // Makes sure `fibers` fibers exist (their stacks mapped), so that later blocks of up to that
    // many threads allocate nothing.
    void reserve(unsigned fibers);

    // Runs every thread of the block `state` names (its block_idx set) through `run_thread`, with
    // state->thread_idx set before each thread runs or resumes. nullopt, or why the block did not
    // finish: a barrier that not every thread reached, in words.
    std::optional<std::string> run(KcCpuThreadState* state, KcCpuDim block_dim, void (*run_thread)());

    // __syncthreads() on this OS thread's runner (the kernel's host call): suspends the calling
    // fiber; returns how many threads of the block passed a predicate of 1.
    static int barrier(int line, int predicate);
    // The line of a __syncthreads() this OS thread ran outside a fiber since the last call (0: none),
    // which then passed without waiting: the source scan did not see it (a macro pasting its name).
    static int take_stray_barrier();

    struct Fiber;

private:
    Fiber& idle_fiber();
    void switch_to(Fiber& f);
    // Why a phase that ended with `waiting` at barriers (at `lines`) and `ended` threads gone cannot
    // go on, or nullopt when every thread waits at one barrier.
    static std::optional<std::string> divergence(KcCpuDim block_dim, KcCpuDim block_idx,
                                                 const std::vector<unsigned>& waiting, const std::vector<int>& lines,
                                                 const std::vector<unsigned>& ended);

    std::vector<std::unique_ptr<Fiber>> fibers_;
    std::vector<Fiber*> free_;
    FiberContext home_; // the worker's own stack, where a fiber returns when it suspends or ends
    Fiber* current_ = nullptr;
    void (*run_thread_)() = nullptr;
    int pending_total_ = 0, released_total_ = 0; // __syncthreads_count's sums
    std::vector<Fiber*> fiber_of_;               // per thread of the block: its fiber while it has one
    std::vector<unsigned> runnable_, waiting_, ended_;
    std::vector<int> lines_;
};

} // namespace kc
