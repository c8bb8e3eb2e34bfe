// Gradient: the tutorial's drawGradient, one thread per pixel in 2d (an exercise)
// kcanvas exercise starter gradient; grade it with: kcanvas exercise check gradient --kernel FILE
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    // TODO: this thread's column and row in the whole canvas, not only inside its block.
    const int x = threadIdx.x;
    const int y = threadIdx.y;
    if (x >= width || y >= height) return;

    // TODO: blue = 255 - 255*y/height, green = 255 - 255*x/width, red = 128 - 128*y/height.
    const int blue = 255;
    const int green = 255;
    const int red = 128;
    store(out, y * width + x, make_pixel(red, green, blue));
}
