// What the prelude needs of the machine it runs on: here, a CUDA GPU (NVRTC).
__device__ inline unsigned kc_sm() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}
// How many threads of this warp access index i in this same instruction (1: only this one).
__device__ inline int kc_lanes_on(long long i) { return __popc(__match_any_sync(__activemask(), i)); }
__device__ inline unsigned kc_atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
__device__ inline unsigned kc_atomic_cas(unsigned* p, unsigned expected, unsigned v) { return atomicCAS(p, expected, v); }
// A word that other threads of this launch may have written: read it from L2 (L1 is per SM and
// may hold an older copy).
__device__ inline unsigned kc_load_fresh(const unsigned* p) { return __ldcg(p); }
// Counts one out-of-range access for the warp's lanes that make it now, with one atomic; true for
// the one lane that made the launch's first.
__device__ inline bool kc_count_first(unsigned* count) {
    const unsigned mask = __activemask();
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const int leader = __ffs(mask) - 1;
    unsigned old = 0;
    if ((int)lane == leader) old = atomicAdd(count, (unsigned)__popc(mask));
    return (int)lane == leader && old == 0u;
}
