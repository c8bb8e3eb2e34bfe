#pragma once
// What a kernel compiled for the CPU shares with kcanvas (cpukernel/): compiled into the host code
// and, as text, into the kernel's shared object after the CPU prelude, so both sides read one
// layout. Plain C++: no includes, no namespaces. Bump KC_CPU_ABI when anything here changes.
#define KC_CPU_ABI 1

struct KcCpuDim {
    unsigned x, y, z;
};

// One launch, as kc_cpu_begin takes it.
struct KcCpuLaunchArgs {
    KcCpuDim grid, block;
    void* out; // Pixel*
    int width, height;
    const void* a; // const Pixel*
    const void* b;
    float t;
    KcCheck check;
};

// The CUDA thread an OS thread runs now: blockIdx and threadIdx, and its worker's number (kc_sm).
// kcanvas writes it before it runs or resumes a thread (kc_cpu_state gives this OS thread's).
struct KcCpuThreadState {
    KcCpuDim block_idx, thread_idx;
    unsigned worker;
};

// What the kernel calls back in kcanvas: __syncthreads() and its _count/_and/_or forms (`line`: the
// user's line; `predicate`: 0 or 1), which return how many threads of the block passed 1.
struct KcCpuHostCalls {
    int (*barrier)(int line, int predicate);
};

// The shared object's entry points (extern "C"):
//   unsigned kc_cpu_abi(void)                    KC_CPU_ABI
//   int kc_cpu_mode(void)                        0 checked, 1 raw
//   int kc_cpu_barriers(void)                    1 when the source calls __syncthreads()
//   KcCpuThreadState* kc_cpu_state(void)         this OS thread's state
//   void kc_cpu_set_host(const KcCpuHostCalls*)  before the first launch
//   void kc_cpu_begin(const KcCpuLaunchArgs*)    before a launch's first block
//   void kc_cpu_run_block(void)                  every thread of the state's block, one after another
//   void kc_cpu_run_thread(void)                 the state's thread (on a fiber: it may reach a barrier)
