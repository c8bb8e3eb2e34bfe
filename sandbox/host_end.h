#pragma once
// Why a kernel host ended in the middle of a frame, in the user's words: the call the sandbox
// refused, the crash (with the thread, when the host knew it), or the signal that killed it.
#include <string>

#include "sandbox/host_abi.h"

namespace kc::sandbox {

// `status` as waitpid gave it; `crash` as the host's handler left it (signal 0: it wrote none).
// "the sandbox stopped your kernel: thread (5,0,0) of block (3,2,0) called openat (a kernel may
// only compute: no files, processes or network)"; "your kernel crashed: thread ... touched memory
// it may not (SIGSEGV at 0x10)"; "your kernel's process ended: killed by SIGKILL".
std::string describe_host_end(int status, const Crash& crash);

} // namespace kc::sandbox
