// kcanvas-kernel-host: runs the user's CPU-compiled kernel for kcanvas in a process that can only
// compute. Started by kcanvas (sandbox/kernel_sandbox.cpp) as
//   kcanvas-kernel-host KERNEL.so PARENT_PID
// with the shared memory on fd 3, commands on fd 4 and replies on fd 5 (sandbox/host_abi.h). It
// loads the kernel, confines itself (sandbox/compute_only.h), says it is ready, then paints one
// frame per command until the command pipe closes. A fault or a refused call ends it through
// on_fault, which leaves the signal and the running thread in the shared memory.
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "sandbox/compute_only.h"
#include "sandbox/host_abi.h"
#include "sandbox/host_runner.h"

namespace {

using namespace kc::sandbox;

std::byte* g_shared = nullptr; // the mapping on_fault writes Crash into
std::size_t g_shared_bytes = 0;
const HostRunner* g_runner = nullptr;

void on_fault(int signal, siginfo_t* info, void*) {
    auto* header = reinterpret_cast<SharedHeader*>(g_shared);
    if (header && __atomic_exchange_n(&header->crash_claimed, 1u, __ATOMIC_SEQ_CST) == 0u) {
        Crash& c = header->crash;
        c.signal = signal;
        c.code = info->si_code;
        c.address = reinterpret_cast<unsigned long long>(info->si_addr);
        c.syscall = signal == SIGSYS ? info->si_syscall : -1;
        c.has_thread = g_runner && g_runner->current_thread(c.block, c.thread) ? 1 : 0;
    }
    _exit(kCrashExit);
}

void catch_faults() {
    static char alt_stack[64 * 1024]; // the main thread's: a runaway recursion still reports
    stack_t ss{};
    ss.ss_sp = alt_stack, ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGXCPU, SIGTRAP}) sigaction(s, &sa, nullptr);
}

bool map_shared(std::size_t bytes) {
    if (bytes == g_shared_bytes) return true;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, kSharedFd, 0);
    if (p == MAP_FAILED) return false;
    std::byte* old = g_shared;
    const std::size_t old_bytes = g_shared_bytes;
    g_shared = static_cast<std::byte*>(p), g_shared_bytes = bytes;
    if (old) munmap(old, old_bytes);
    return true;
}

bool read_exactly(void* data, std::size_t bytes) {
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {
        const ssize_t n = read(kCommandFd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n, bytes -= static_cast<std::size_t>(n);
    }
    return true;
}

void reply(const char* message) {
    HostReply r{};
    r.magic = kMagic;
    r.ok = message[0] == '\0';
    std::strncpy(r.message, message, sizeof r.message - 1);
    (void)!write(kResultFd, &r, sizeof r); // one write under PIPE_BUF: whole or not at all
}

// Runs frames until kcanvas closes the pipe (or sends something else).
int serve(HostRunner& runner) {
    FrameCommand command{};
    while (read_exactly(&command, sizeof command)) {
        if (command.magic != kMagic) return 2;
        if (!map_shared(command.shared_bytes)) {
            reply("the kernel host could not map the frame's memory");
            continue;
        }
        const std::optional<std::string> refusal = runner.run(command, g_shared);
        reply(refusal ? refusal->c_str() : "");
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != std::atoi(argv[2])) return 2; // kcanvas ended before the line above
    close_range(kResultFd + 1, ~0U, 0);
    if (!map_shared(sizeof(SharedHeader))) return 2;
    catch_faults();
    std::string why;
    std::unique_ptr<HostRunner> runner = kc::sandbox::load_host_runner(argv[1], why);
    if (!runner) {
        reply(why.c_str());
        return 1;
    }
    g_runner = runner.get();
    // glibc's first pthread_create installs its own signal handlers (rt_sigaction, which the
    // filter refuses): a thread now, so that the kernel's threads may start later.
    std::thread([] {}).join();
    // A kernel's printf: stdout's buffer given now, as stdio would allocate it after an fstat.
    static char stdout_buffer[4096];
    std::setvbuf(stdout, stdout_buffer, _IOLBF, sizeof stdout_buffer);
    if (std::optional<std::string> failed = enter_compute_only()) {
        reply(failed->c_str());
        return 1;
    }
    reply("");
    return serve(*runner);
}
