#pragma once
// What kcanvas and its kernel host (kcanvas-kernel-host, sandbox/kernel_host_main.cpp) share: the
// file descriptors the host is started with, the layout of the shared memory and the messages on
// the two pipes. Both sides are built from this one header, so they cannot disagree.
#include <cstdint>

#include "gpu/prelude/kcanvas_check_abi.h"

namespace kc::sandbox {

// The host's descriptors, fixed by the spawn (everything else is closed).
inline constexpr int kSharedFd = 3;  // the memfd of SharedHeader and the frame's images
inline constexpr int kCommandFd = 4; // kcanvas -> host: FrameCommand
inline constexpr int kResultFd = 5;  // host -> kcanvas: HostReply

inline constexpr std::uint32_t kMagic = 0x6b63686bu; // "khck": both sides run the same build

// Exit status of a host whose signal handler wrote Crash and ended it.
inline constexpr int kCrashExit = 86;

// Written by the host's signal handler into SharedHeader before it ends the process: the signal,
// the faulting address, the refused system call (SIGSYS from the seccomp filter) and, when the
// kernel's runner knew it, the thread that ran.
struct Crash {
    int signal;
    int code;    // siginfo's si_code
    int syscall; // SIGSYS: the refused call's number
    int has_thread;
    unsigned long long address;
    unsigned block[3], thread[3];
};

// At offset 0 of the shared memory; the images follow at the offsets a FrameCommand names.
struct SharedHeader {
    KcViolation violation; // zeroed by kcanvas before each frame
    Crash crash;           // zeroed when the host starts
    unsigned crash_claimed;
};

// One frame: the launch and where its buffers lie in the shared memory (byte offsets).
struct FrameCommand {
    std::uint32_t magic;
    std::uint32_t checked; // 1: KcCheck below is used (checked mode)
    std::uint64_t shared_bytes;
    int grid[3], block[3];
    int width, height;
    float t;
    int identity;
    long long max_blocks;
    std::uint64_t out, a, b;   // Pixel arrays of width*height
    std::uint64_t writers;     // 0: no record; else width*height words
    std::uint64_t block_sm;    // `blocks` words when writers is set
    unsigned long long blocks; // blocks the record keeps the worker of
    unsigned workers;
};

// The host's answer: to the start (ready) and to each FrameCommand (the runner's refusal, if any).
struct HostReply {
    std::uint32_t magic;
    std::uint32_t ok;
    char message[1000]; // NUL-terminated; empty when ok
};

} // namespace kc::sandbox
