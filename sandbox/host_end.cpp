#include "sandbox/host_end.h"

#include <seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include <cstdlib>

#include <fmt/format.h>

namespace kc::sandbox {

namespace {

std::string syscall_name(int number) {
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
    if (!name) return fmt::format("system call {}", number);
    std::string s = name;
    std::free(name);
    return s;
}

std::string thread_of(const Crash& c) {
    if (!c.has_thread) return "";
    return fmt::format("thread ({},{},{}) of block ({},{},{}) ", c.thread[0], c.thread[1], c.thread[2], c.block[0],
                       c.block[1], c.block[2]);
}

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    return abbrev ? std::string("SIG") + abbrev : fmt::format("signal {}", signal);
}

std::string signal_words(int signal, unsigned long long address) {
    switch (signal) {
    case SIGSEGV:
    case SIGBUS:
        return fmt::format("touched memory it may not ({} at {:#x})", signal_name(signal), address);
    case SIGFPE:
        return "divided an integer by zero (SIGFPE)";
    case SIGILL:
        return "ran an illegal instruction (SIGILL)";
    case SIGABRT:
        return "aborted (SIGABRT: abort(), assert or an uncaught exception)";
    case SIGXCPU:
        return "ran out of its CPU time (SIGXCPU)";
    default:
        return "was killed by " + signal_name(signal);
    }
}

} // namespace

std::string describe_host_end(int status, const Crash& crash) {
    if (crash.signal == SIGSYS)
        return fmt::format("the sandbox stopped your kernel: {}called {} (a kernel may only compute: no files, "
                           "processes or network)",
                           thread_of(crash), syscall_name(crash.syscall));
    if (crash.signal != 0)
        return fmt::format("your kernel crashed: {}{}", thread_of(crash), signal_words(crash.signal, crash.address));
    if (WIFSIGNALED(status)) return fmt::format("your kernel's process ended: {}", signal_words(WTERMSIG(status), 0));
    if (WIFEXITED(status)) return fmt::format("your kernel's process ended: it called exit({})", WEXITSTATUS(status));
    return "your kernel's process ended";
}

} // namespace kc::sandbox
