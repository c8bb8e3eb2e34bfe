#include "sandbox/compute_only.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstring>
#include <memory>

#include "sandbox/host_abi.h"

namespace kc::sandbox {

namespace {

struct ContextRelease {
    void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using Context = std::unique_ptr<void, ContextRelease>;

// Calls that computing needs, whatever their arguments: memory, threads' bookkeeping, futexes,
// signals' return and masks (ucontext fibers switch masks), clocks, sleep, yield, exit.
constexpr int kAlways[] = {
    SCMP_SYS(futex),
    SCMP_SYS(exit),
    SCMP_SYS(exit_group),
    SCMP_SYS(mmap),
    SCMP_SYS(munmap),
    SCMP_SYS(mprotect),
    SCMP_SYS(mremap),
    SCMP_SYS(brk),
    SCMP_SYS(madvise),
    SCMP_SYS(rt_sigreturn),
    SCMP_SYS(rt_sigprocmask),
    SCMP_SYS(sigaltstack),
    SCMP_SYS(clock_gettime),
    SCMP_SYS(gettimeofday),
    SCMP_SYS(clock_nanosleep),
    SCMP_SYS(nanosleep),
    SCMP_SYS(sched_yield),
    SCMP_SYS(getpid),
    SCMP_SYS(gettid),
    SCMP_SYS(set_robust_list),
    SCMP_SYS(rseq),
    SCMP_SYS(sched_getaffinity),
    SCMP_SYS(getrandom),
};

std::optional<std::string> failed(const char* what, int rc) {
    return std::string("the kernel host could not confine itself: ") + what + ": " + std::strerror(-rc);
}

std::optional<std::string> add_rules(scmp_filter_ctx ctx) {
    for (int call : kAlways)
        if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 0); rc < 0) return failed("allow a call", rc);
    struct FdRule {
        int call;
        scmp_datum_t fd;
    };
    for (FdRule r : {FdRule{SCMP_SYS(read), kCommandFd}, FdRule{SCMP_SYS(write), kResultFd},
                     FdRule{SCMP_SYS(write), STDOUT_FILENO}, FdRule{SCMP_SYS(write), STDERR_FILENO},
                     FdRule{SCMP_SYS(writev), STDERR_FILENO}})
        if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, r.call, 1, SCMP_A0(SCMP_CMP_EQ, r.fd)); rc < 0)
            return failed("allow a descriptor", rc);
    // Threads, never processes: clone must carry CLONE_THREAD. clone3's flags lie in memory the
    // filter cannot read, so it answers ENOSYS and glibc falls back to clone.
    if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                                  SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
        rc < 0)
        return failed("allow threads", rc);
    if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0); rc < 0)
        return failed("refuse clone3", rc);
    // abort() signals its own process.
    if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                                  SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(getpid())));
        rc < 0)
        return failed("allow abort", rc);
    return std::nullopt;
}

bool under_asan() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#endif
#endif
    return false;
}

std::optional<std::string> set_limits(const ComputeOnlyLimits& limits) {
    const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 5};
    if (setrlimit(RLIMIT_CPU, &cpu) != 0) return failed("RLIMIT_CPU", -errno);
    const rlimit as{limits.address_space, limits.address_space};
    if (!under_asan() && setrlimit(RLIMIT_AS, &as) != 0) return failed("RLIMIT_AS", -errno);
    const rlimit none{0, 0}; // no core files of the user's code, no new descriptors
    if (setrlimit(RLIMIT_CORE, &none) != 0) return failed("RLIMIT_CORE", -errno);
    if (setrlimit(RLIMIT_NOFILE, &none) != 0) return failed("RLIMIT_NOFILE", -errno);
    return std::nullopt;
}

} // namespace

std::optional<std::string> enter_compute_only(const ComputeOnlyLimits& limits) {
    if (auto why = set_limits(limits)) return why;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return failed("PR_SET_NO_NEW_PRIVS", -errno);
    // Anything else raises SIGSYS in the calling thread: the handler names the call.
    Context ctx(seccomp_init(SCMP_ACT_TRAP));
    if (!ctx) return failed("seccomp_init", -ENOMEM);
    if (int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc < 0) return failed("TSYNC", rc);
    if (auto why = add_rules(ctx.get())) return why;
    if (int rc = seccomp_load(ctx.get()); rc < 0) return failed("seccomp_load", rc);
    return std::nullopt;
}

} // namespace kc::sandbox
