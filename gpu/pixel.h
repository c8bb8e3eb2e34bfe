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

// Four neighbouring pixels, written with one 16-byte store.
struct alignas(16) PixelQuad {
    Pixel p[4];
};

KC_HD Pixel make_pixel(int r, int g, int b) {
    return Pixel{static_cast<uint8_t>(b), static_cast<uint8_t>(g), static_cast<uint8_t>(r), 255};
}

KC_HD bool operator==(Pixel p, Pixel q) { return p.b == q.b && p.g == q.g && p.r == q.r && p.a == q.a; }

// Written over pixels that no thread of a hand-set grid covers, so they never show garbage.
constexpr Pixel kUncoveredPixel{48, 0, 48, 255};
// The light stripes of the hatch over uncovered pixels: a pattern no view or operation paints,
// so a gap in the grid reads as a gap even where the picture itself is dark purple.
constexpr Pixel kUncoveredStripe{150, 60, 150, 255};

// Uncovered pixel (x, y): diagonal stripes 2 pixels wide every 8.
// (Built from literals: device code cannot use the host's constexpr objects.)
KC_HD Pixel uncovered_pixel(int x, int y) {
    return ((x + y) & 7) < 2 ? Pixel{150, 60, 150, 255} : Pixel{48, 0, 48, 255};
}

} // namespace kc
