// kcanvas prelude: compiled before your kernel (read-only).
// Canvas pixels are 8-bit B,G,R,A in memory (OpenCV's order), one 32-bit word each.
struct __align__(4) Pixel {
    unsigned char b, g, r, a;
};

__device__ inline int clamp255(int v) { return v < 0 ? 0 : (v > 255 ? 255 : v); }

// An opaque pixel from red, green, blue in 0..255 (clamped).
__device__ inline Pixel make_pixel(int r, int g, int b) {
    Pixel p;
    p.r = (unsigned char)clamp255(r), p.g = (unsigned char)clamp255(g), p.b = (unsigned char)clamp255(b), p.a = 255;
    return p;
}
// The same from floats in 0..1 (rounded, clamped).
__device__ inline Pixel make_pixel_f(float r, float g, float b) {
    return make_pixel(__float2int_rn(r * 255.0f), __float2int_rn(g * 255.0f), __float2int_rn(b * 255.0f));
}

// round(w * p + (1 - w) * q) per channel.
__device__ inline Pixel mix(Pixel p, Pixel q, float w) {
    return make_pixel((int)(w * p.r + (1.0f - w) * q.r + 0.5f), (int)(w * p.g + (1.0f - w) * q.g + 0.5f),
                      (int)(w * p.b + (1.0f - w) * q.b + 0.5f));
}
