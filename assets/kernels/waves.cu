// Waves: rings that move with t, the seconds since the start
// Every frame launches the kernel again with a larger t, so the picture moves. Floats and the
// math library (sinf, sqrtf, ...) work as in any CUDA kernel.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // Distance from a centre that circles the middle of the canvas.
    const float cx = width * (0.5f + 0.25f * cosf(0.7f * t)), cy = height * (0.5f + 0.25f * sinf(0.9f * t));
    const float d = sqrtf((x - cx) * (x - cx) + (y - cy) * (y - cy));
    const float wave = 0.5f + 0.5f * sinf(d * 0.08f - 4.0f * t);

    // Tint image A with the waves.
    const Pixel pa = load(a, y * width + x);
    store(out, y * width + x, make_pixel_f(wave * pa.r / 255.0f, 0.3f * wave + 0.5f * pa.g / 255.0f, 1.0f - 0.6f * wave));
}
