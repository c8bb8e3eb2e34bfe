#include "cpukernel/fiber_switch.h"

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define KC_ASAN_FIBERS 1
#endif

#if defined(__x86_64__)
// kc_fiber_switch(void** save_sp, void* load_sp): the System V ABI's callee-saved registers on the
// running stack, its pointer saved, the other stack's registers popped, and `ret` into it.
extern "C" void kc_fiber_switch(void** save_sp, void* load_sp);
asm(R"(
    .text
    .globl kc_fiber_switch
    .hidden kc_fiber_switch
    .type kc_fiber_switch, @function
kc_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size kc_fiber_switch, .-kc_fiber_switch
    .section .note.GNU-stack,"",@progbits
    .text
)");
#endif

namespace kc {

#if defined(__x86_64__)

void make_fiber_context(FiberContext& c, void* stack, std::size_t size, void (*entry)()) {
    // From the top: a zero return address under `entry` (entry never returns), `entry` where `ret`
    // finds it, six registers, and the control words of the running thread. `ret` leaves the stack
    // pointer 8 below a 16-byte boundary, as a call would.
    auto top = reinterpret_cast<std::uintptr_t>(static_cast<char*>(stack) + size) & ~std::uintptr_t(15);
    auto* slot = reinterpret_cast<std::uint64_t*>(top);
    *--slot = 0;                                      // entry's "return address"
    *--slot = reinterpret_cast<std::uint64_t>(entry); // popped by ret
    for (int k = 0; k < 6; ++k) *--slot = 0;          // rbp, rbx, r12..r15
    std::uint32_t mxcsr = 0;
    std::uint16_t fpu = 0;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fpu));
    *--slot = std::uint64_t(mxcsr) | std::uint64_t(fpu) << 32;
    c.sp = slot;
    c.stack_bottom = stack, c.stack_size = size;
}

static void switch_now(FiberContext& from, FiberContext& to) { kc_fiber_switch(&from.sp, to.sp); }

#else

void make_fiber_context(FiberContext& c, void* stack, std::size_t size, void (*entry)()) {
    getcontext(&c.uc);
    c.uc.uc_stack.ss_sp = stack;
    c.uc.uc_stack.ss_size = size;
    c.uc.uc_link = nullptr;
    makecontext(&c.uc, entry, 0);
    c.stack_bottom = stack, c.stack_size = size;
}

static void switch_now(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

#endif

void fiber_started([[maybe_unused]] FiberContext& came_from) {
#if defined(KC_ASAN_FIBERS)
    __sanitizer_finish_switch_fiber(nullptr, &came_from.stack_bottom, &came_from.stack_size);
#endif
}

void switch_fiber_context(FiberContext& from, FiberContext& to, [[maybe_unused]] FiberContext* came_from) {
#if defined(KC_ASAN_FIBERS)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, to.stack_bottom, to.stack_size);
    switch_now(from, to);
    const void* bottom = nullptr;
    std::size_t size = 0;
    __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
    if (came_from) came_from->stack_bottom = bottom, came_from->stack_size = size;
#else
    switch_now(from, to);
#endif
}

} // namespace kc
