// What the prelude needs of the machine it runs on: here, a CUDA GPU (NVRTC).
__device__ inline unsigned kc_sm() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}
__device__ inline unsigned kc_atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
__device__ inline unsigned kc_atomic_cas(unsigned* p, unsigned expected, unsigned v) {
    return atomicCAS(p, expected, v);
}
__device__ inline unsigned kc_atomic_exch(unsigned* p, unsigned v) { return atomicExch(p, v); }
__device__ inline void kc_fence() { __threadfence(); }
// Counts one out-of-range access for the warp's lanes that make it now, with one atomic; true for
// the lowest of those lanes, the warp's earliest thread in launch order.
__device__ inline bool kc_count_and_lead(unsigned* count) {
    const unsigned mask = __activemask();
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const int leader = __ffs(mask) - 1;
    if ((int)lane != leader) return false;
    atomicAdd(count, (unsigned)__popc(mask));
    return true;
}
