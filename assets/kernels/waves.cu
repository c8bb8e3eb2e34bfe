// Waves: rings that move with t, the seconds since the start
// Every frame launches the kernel again with a larger t, so the picture moves. Floats and the
// math library (sqrtf, floorf, sinf, ...) work as in any CUDA kernel.

// A smooth wave between 0 and 1 with period 1, from plain arithmetic. sinf would do as well, but
// the GPU's and the CPU's math libraries may round sinf's last bit differently; + - * / and sqrtf
// round the same everywhere, so this starter paints the same bytes on a GPU and on the CPU backend.
__device__ float wave01(float s) {
    const float f = s - floorf(s);            // 0 .. 1
    const float tri = fabsf(2.0f * f - 1.0f); // 1 .. 0 .. 1
    return tri * tri * (3.0f - 2.0f * tri);   // smoothed
}

extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // Distance from a centre that wanders around the middle of the canvas.
    const float cx = width * (0.25f + 0.5f * wave01(0.11f * t)), cy = height * (0.25f + 0.5f * wave01(0.14f * t));
    const float d = sqrtf((x - cx) * (x - cx) + (y - cy) * (y - cy));
    const float wave = wave01(d * 0.0125f - 0.64f * t); // rings 80 pixels apart, moving outwards

    // Tint image A with the waves.
    const Pixel pa = load(a, y * width + x);
    store(out, y * width + x,
          make_pixel_f(wave * pa.r / 255.0f, 0.3f * wave + 0.5f * pa.g / 255.0f, 1.0f - 0.6f * wave));
}
