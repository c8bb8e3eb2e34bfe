#pragma once
// The canvas pixel and the host/device function qualifier shared by kernels and the CPU emulator.
#include <cstdint>

#if defined(__CUDACC__)
#define KC_HD __host__ __device__ __forceinline__
#else
#define KC_HD inline
#endif

namespace kc {

// Canvas pixels are 8-bit B,G,R,A in memory: OpenCV's channel order (the tutorials save their
// pictures with cv2.imwrite) and the layout NVIDIA's GL driver uploads without conversion (GL_BGRA).
struct alignas(4) Pixel {
    uint8_t b, g, r, a;
};

KC_HD std::uint32_t pack(Pixel p) {
    return std::uint32_t(p.b) | std::uint32_t(p.g) << 8 | std::uint32_t(p.r) << 16 | std::uint32_t(p.a) << 24;
}

KC_HD Pixel unpack(std::uint32_t v) {
    return Pixel{std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
}

// Stores through 32- and 128-bit words on the GPU: a struct of bytes may otherwise become byte
// stores, and a memory-bound kernel needs wide ones.
KC_HD void store_pixel(Pixel* dst, Pixel v) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<std::uint32_t*>(dst) = pack(v);
#else
    *dst = v;
#endif
}
KC_HD Pixel load_pixel(const Pixel* src) {
#if defined(__CUDA_ARCH__)
    const std::uint32_t v = __ldg(reinterpret_cast<const unsigned int*>(src)); // one 32-bit read-only load
    return Pixel{std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
#else
    return *src;
#endif
}
// Asks L2 to fetch the line holding `p` and returns at once (no register waits for it); the CPU
// has nothing to do.
KC_HD void prefetch_l2(const Pixel* p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
    (void)p;
#endif
}
KC_HD void store_quad(Pixel* dst, Pixel a, Pixel b, Pixel c, Pixel d) { // dst 16-byte aligned
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<uint4*>(dst) = make_uint4(pack(a), pack(b), pack(c), pack(d));
#else
    dst[0] = a, dst[1] = b, dst[2] = c, dst[3] = d;
#endif
}

KC_HD Pixel make_pixel(int r, int g, int b) {
    return Pixel{static_cast<uint8_t>(b), static_cast<uint8_t>(g), static_cast<uint8_t>(r), 255};
}

KC_HD bool operator==(Pixel p, Pixel q) { return p.b == q.b && p.g == q.g && p.r == q.r && p.a == q.a; }

// Written over pixels that no thread of a hand-set grid covers, so they never show garbage.
constexpr Pixel kUncoveredPixel{48, 0, 48, 255};
// Uncovered pixel (x, y): diagonal light stripes 2 pixels wide every 8 over kUncoveredPixel, a
// pattern no view or operation paints, so a gap in the grid reads as a gap even where the picture
// itself is dark purple.
// (Built from literals: device code cannot use the host's constexpr objects.)
KC_HD Pixel uncovered_pixel(int x, int y) {
    return ((x + y) & 7) < 2 ? Pixel{150, 60, 150, 255} : Pixel{48, 0, 48, 255};
}

} // namespace kc
