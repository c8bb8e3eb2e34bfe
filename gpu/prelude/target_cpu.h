// What the prelude needs of the machine it runs on: here, the CPU. kcanvas compiles your kernel
// with the system's C++ compiler and runs the grid itself (cpukernel/): blocks spread over worker
// threads, a block's threads one after another, as fibers once the kernel has a __syncthreads().
// CUDA's words become plain C++.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __constant__
// One copy per worker thread: a worker runs one block at a time from its first thread to its
// last, so its copy is that block's shared memory. (extern __shared__: none; kcanvas launches
// with no dynamic shared memory, on the GPU too.)
#define __shared__ static thread_local

typedef KcCpuDim uint3;
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    constexpr dim3(KcCpuDim d) : x(d.x), y(d.y), z(d.z) {}
    constexpr operator KcCpuDim() const { return KcCpuDim{x, y, z}; }
};

// The thread this worker runs now (kcanvas switches it with the thread), and the launch.
static thread_local KcCpuThreadState kc_cpu_self;
static KcCpuLaunchArgs kc_cpu_launch;
static const KcCpuHostCalls* kc_cpu_host;
#define blockIdx (static_cast<const KcCpuDim&>(kc_cpu_self.block_idx))
#define threadIdx (static_cast<const KcCpuDim&>(kc_cpu_self.thread_idx))
#define blockDim (static_cast<const KcCpuDim&>(kc_cpu_launch.block))
#define gridDim (static_cast<const KcCpuDim&>(kc_cpu_launch.grid))
static const int warpSize = 32;

// Barriers: kcanvas suspends the thread's fiber until every thread of the block has arrived, and
// reports a barrier that some threads of the block never reach.
#define __syncthreads() ((void)kc_cpu_host->barrier(__LINE__, 0))
#define __syncthreads_count(p) kc_cpu_host->barrier(__LINE__, (p) ? 1 : 0)
#define __syncthreads_and(p)                                                                                           \
    (kc_cpu_host->barrier(__LINE__, (p) ? 1 : 0) == (int)(blockDim.x * blockDim.y * blockDim.z))
#define __syncthreads_or(p) (kc_cpu_host->barrier(__LINE__, (p) ? 1 : 0) != 0)
__device__ inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__device__ inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// A warp's threads do not run in lockstep here: kcanvas refuses these before compiling (with the
// line); the deleted declarations catch what its scan misses.
template <class... A>
void __shfl_sync(A...) = delete;
template <class... A>
void __shfl_up_sync(A...) = delete;
template <class... A>
void __shfl_down_sync(A...) = delete;
template <class... A>
void __shfl_xor_sync(A...) = delete;
template <class... A>
void __ballot_sync(A...) = delete;
template <class... A>
void __any_sync(A...) = delete;
template <class... A>
void __all_sync(A...) = delete;
template <class... A>
void __match_any_sync(A...) = delete;
template <class... A>
void __syncwarp(A...) = delete;
template <class... A>
void __activemask(A...) = delete;

extern "C" int printf(const char*, ...);

// CUDA's conversions: rounded as named, saturating, NaN to 0.
__device__ inline int kc_to_int(float x) {
    return x != x ? 0 : x >= 2147483648.0f ? 2147483647 : x < -2147483648.0f ? (-2147483647 - 1) : (int)x;
}
__device__ inline unsigned kc_to_uint(float x) {
    return x != x || x <= 0.0f ? 0u : x >= 4294967296.0f ? 4294967295u : (unsigned)x;
}
__device__ inline int __float2int_rn(float x) { return kc_to_int(__builtin_rintf(x)); } // the default mode: to even
__device__ inline int __float2int_rz(float x) { return kc_to_int(__builtin_truncf(x)); }
__device__ inline int __float2int_rd(float x) { return kc_to_int(__builtin_floorf(x)); }
__device__ inline int __float2int_ru(float x) { return kc_to_int(__builtin_ceilf(x)); }
__device__ inline unsigned __float2uint_rn(float x) { return kc_to_uint(__builtin_rintf(x)); }
__device__ inline unsigned __float2uint_rz(float x) { return kc_to_uint(__builtin_truncf(x)); }
__device__ inline float __int2float_rn(int x) { return (float)x; }
__device__ inline float __uint2float_rn(unsigned x) { return (float)x; }
__device__ inline float __int_as_float(int x) {
    float f;
    __builtin_memcpy(&f, &x, 4);
    return f;
}
__device__ inline int __float_as_int(float x) {
    int i;
    __builtin_memcpy(&i, &x, 4);
    return i;
}
__device__ inline float __uint_as_float(unsigned x) {
    float f;
    __builtin_memcpy(&f, &x, 4);
    return f;
}
__device__ inline unsigned __float_as_uint(float x) {
    unsigned i;
    __builtin_memcpy(&i, &x, 4);
    return i;
}

// Math: the C library's functions (declared here: math.h costs a C++ compiler half a second), float
// overloads as CUDA has them, and CUDA's fast forms as the same functions.
// clang-format off
#define KC_MATHS(F1, F2)                                                                                               \
    F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(exp) F1(exp2) F1(exp10)          \
    F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p) F1(sqrt) F1(cbrt) F1(fabs) F1(floor) F1(ceil) F1(round) F1(trunc)   \
    F1(rint) F1(erf) F1(erfc) F2(pow) F2(atan2) F2(hypot) F2(fmod) F2(fmin) F2(fmax) F2(copysign) F2(remainder)
#define KC_C_MATH1(name) float name##f(float) noexcept; double name(double) noexcept;
#define KC_C_MATH2(name) float name##f(float, float) noexcept; double name(double, double) noexcept;
#define KC_FLOAT_MATH1(name) __device__ inline float name(float x) { return name##f(x); }
#define KC_FLOAT_MATH2(name) __device__ inline float name(float x, float y) { return name##f(x, y); }
extern "C" {
KC_MATHS(KC_C_MATH1, KC_C_MATH2)
float fmaf(float, float, float) noexcept;
double fma(double, double, double) noexcept;
void sincosf(float, float*, float*) noexcept;
void sincos(double, double*, double*) noexcept;
int abs(int) noexcept;
long long llabs(long long) noexcept;
}
KC_MATHS(KC_FLOAT_MATH1, KC_FLOAT_MATH2)
// clang-format on
__device__ inline float abs(float x) { return fabsf(x); }
__device__ inline double abs(double x) { return fabs(x); }
__device__ inline long long abs(long long x) { return llabs(x); }
__device__ inline float fma(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
__device__ inline float __fdividef(float a, float b) { return a / b; }
__device__ inline float __expf(float x) { return expf(x); }
__device__ inline float __exp10f(float x) { return exp10f(x); }
__device__ inline float __logf(float x) { return logf(x); }
__device__ inline float __log2f(float x) { return log2f(x); }
__device__ inline float __log10f(float x) { return log10f(x); }
__device__ inline float __sinf(float x) { return sinf(x); }
__device__ inline float __cosf(float x) { return cosf(x); }
__device__ inline float __tanf(float x) { return tanf(x); }
__device__ inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
__device__ inline float __powf(float a, float b) { return powf(a, b); }
__device__ inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
__device__ inline float __fsqrt_rn(float x) { return sqrtf(x); }
__device__ inline float __frcp_rn(float x) { return 1.0f / x; }
__device__ inline float __fadd_rn(float a, float b) { return a + b; }
__device__ inline float __fmul_rn(float a, float b) { return a * b; }
__device__ inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
#define KC_MIN_MAX(T)                                                                                                  \
    __device__ inline T min(T a, T b) { return b < a ? b : a; }                                                        \
    __device__ inline T max(T a, T b) { return a < b ? b : a; }
KC_MIN_MAX(int)
KC_MIN_MAX(unsigned)
KC_MIN_MAX(long)
KC_MIN_MAX(unsigned long)
KC_MIN_MAX(long long)
KC_MIN_MAX(unsigned long long)
#undef KC_MIN_MAX
__device__ inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
__device__ inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
__device__ inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
__device__ inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
__device__ inline float min(float a, float b) { return fminf(a, b); }
__device__ inline float max(float a, float b) { return fmaxf(a, b); }
__device__ inline double min(double a, double b) { return fmin(a, b); }
__device__ inline double max(double a, double b) { return fmax(a, b); }

// Bits.
__device__ inline int __popc(unsigned x) { return __builtin_popcount(x); }
__device__ inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__device__ inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
__device__ inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
__device__ inline int __ffs(int x) { return __builtin_ffs(x); }
__device__ inline int __ffsll(long long x) { return __builtin_ffsll(x); }
__device__ inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int k = 0; k < 32; ++k) r = r << 1 | (x >> k & 1u);
    return r;
}
__device__ inline int __mul24(int a, int b) { return (int)((long long)(a << 8 >> 8) * (b << 8 >> 8)); }
__device__ inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xFFFFFFu) * (b & 0xFFFFFFu); }
__device__ inline int __mulhi(int a, int b) { return (int)((long long)a * b >> 32); }
__device__ inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)((unsigned long long)a * b >> 32); }

// Loads through the read-only or L2 caches are plain loads here.
template <class T>
__device__ inline T __ldg(const T* p) {
    return *p;
}
template <class T>
__device__ inline T __ldcg(const T* p) {
    return *p;
}

// Atomics: real ones (relaxed, as CUDA's are).
#define KC_ATOMIC_INT(T)                                                                                               \
    __device__ inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }                    \
    __device__ inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }                    \
    __device__ inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }                  \
    __device__ inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }                    \
    __device__ inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }                      \
    __device__ inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }                    \
    __device__ inline T atomicCAS(T* p, T expected, T v) {                                                             \
        __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                       \
        return expected;                                                                                               \
    }                                                                                                                  \
    __device__ inline T atomicMin(T* p, T v) {                                                                         \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                                  \
        while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {        \
        }                                                                                                              \
        return old;                                                                                                    \
    }                                                                                                                  \
    __device__ inline T atomicMax(T* p, T v) {                                                                         \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                                  \
        while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {        \
        }                                                                                                              \
        return old;                                                                                                    \
    }
KC_ATOMIC_INT(int)
KC_ATOMIC_INT(unsigned)
KC_ATOMIC_INT(unsigned long long)
KC_ATOMIC_INT(long long)
#undef KC_ATOMIC_INT
#define KC_ATOMIC_FLOAT(T, W)                                                                                          \
    __device__ inline T atomicAdd(T* p, T v) {                                                                         \
        W old = __atomic_load_n((W*)p, __ATOMIC_RELAXED), sum;                                                         \
        do {                                                                                                           \
            T f, g;                                                                                                    \
            __builtin_memcpy(&f, &old, sizeof f);                                                                      \
            g = f + v;                                                                                                 \
            __builtin_memcpy(&sum, &g, sizeof g);                                                                      \
        } while (!__atomic_compare_exchange_n((W*)p, &old, sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));            \
        T f;                                                                                                           \
        __builtin_memcpy(&f, &old, sizeof f);                                                                          \
        return f;                                                                                                      \
    }                                                                                                                  \
    __device__ inline T atomicExch(T* p, T v) {                                                                        \
        W w, old;                                                                                                      \
        __builtin_memcpy(&w, &v, sizeof w);                                                                            \
        old = __atomic_exchange_n((W*)p, w, __ATOMIC_RELAXED);                                                         \
        T f;                                                                                                           \
        __builtin_memcpy(&f, &old, sizeof f);                                                                          \
        return f;                                                                                                      \
    }
KC_ATOMIC_FLOAT(float, unsigned)
KC_ATOMIC_FLOAT(double, unsigned long long)
#undef KC_ATOMIC_FLOAT
__device__ inline unsigned atomicInc(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (
        !__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
__device__ inline unsigned atomicDec(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old == 0u || old > limit ? limit : old - 1u, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
    return old;
}

// What checked.cuh needs of the machine (target_gpu.cuh has the GPU's): a worker is an SM, a warp
// is one thread.
__device__ inline unsigned kc_sm() { return kc_cpu_self.worker; }
__device__ inline unsigned kc_atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
__device__ inline unsigned kc_atomic_cas(unsigned* p, unsigned expected, unsigned v) {
    return atomicCAS(p, expected, v);
}
__device__ inline unsigned kc_atomic_exch(unsigned* p, unsigned v) {
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
__device__ inline void kc_fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__device__ inline bool kc_count_and_lead(unsigned* count) { return atomicAdd(count, 1u), true; }
