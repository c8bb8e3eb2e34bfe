
// kcanvas' entry points on the CPU (cpukernel/ calls them; kcanvas_cpu_abi.h lists them).
// KC_CPU_RAW and KC_CPU_BARRIERS are defined just above by kcanvas.
#define KC_CPU_EXPORT extern "C" __attribute__((visibility("default")))
KC_CPU_EXPORT unsigned kc_cpu_abi() { return KC_CPU_ABI; }
KC_CPU_EXPORT int kc_cpu_mode() { return KC_CPU_RAW; }
KC_CPU_EXPORT int kc_cpu_barriers() { return KC_CPU_BARRIERS; }
KC_CPU_EXPORT KcCpuThreadState* kc_cpu_state() { return &kc_cpu_self; }
KC_CPU_EXPORT void kc_cpu_set_host(const KcCpuHostCalls* host) { kc_cpu_host = host; }
KC_CPU_EXPORT void kc_cpu_begin(const KcCpuLaunchArgs* launch) { kc_cpu_launch = *launch; }

static inline __attribute__((always_inline)) void kc_cpu_thread() {
    const KcCpuLaunchArgs& l = kc_cpu_launch;
#if KC_CPU_RAW
    paint((Pixel*)l.out, l.width, l.height, (const Pixel*)l.a, (const Pixel*)l.b, l.t);
#else
    kc_paint_checked((Pixel*)l.out, l.width, l.height, (const Pixel*)l.a, (const Pixel*)l.b, l.t, l.check);
#endif
}
KC_CPU_EXPORT void kc_cpu_run_thread() { kc_cpu_thread(); }
KC_CPU_EXPORT void kc_cpu_run_block() {
    KcCpuThreadState& s = kc_cpu_self;
    const KcCpuDim d = kc_cpu_launch.block;
    for (unsigned z = 0; z < d.z; ++z)
        for (unsigned y = 0; y < d.y; ++y)
            for (unsigned x = 0; x < d.x; ++x) {
                s.thread_idx = KcCpuDim{x, y, z};
                kc_cpu_thread();
            }
}
