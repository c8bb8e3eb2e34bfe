#pragma once
// The smallest step between fibers: save the callee-saved registers and the stack pointer of the
// running one, load the other's. On x86-64 a few instructions (no system call: swapcontext would
// save the signal mask with one each time, and a block's threads cross a barrier twice each);
// elsewhere ucontext's swapcontext.
#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace kc {

struct FiberContext {
#if defined(__x86_64__)
    void* sp = nullptr;
#else
    ucontext_t uc{};
#endif
    const void* stack_bottom = nullptr; // for AddressSanitizer, which must be told of each switch
    std::size_t stack_size = 0;
};

// Makes `c` start `entry` (which never returns) on [stack, stack + size) when switched to; `entry`
// first calls fiber_started().
void make_fiber_context(FiberContext& c, void* stack, std::size_t size, void (*entry)());
void fiber_started(FiberContext& came_from);

// Saves the running context into `from` and runs `to`. When something switches back to `from`,
// that context's stack is noted in `came_from` (where the caller knows it is not noted yet).
void switch_fiber_context(FiberContext& from, FiberContext& to, FiberContext* came_from = nullptr);

} // namespace kc
