// Gradient: the tutorial's drawGradient, one thread per pixel in 2d (the solution)
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x; // column
    const int y = blockIdx.y * blockDim.y + threadIdx.y; // row
    if (x >= width || y >= height) return; // the last blocks stick out past the canvas

    const int blue = 255 - 255 * y / height;
    const int green = 255 - 255 * x / width;
    const int red = 128 - 128 * y / height;
    store(out, y * width + x, make_pixel(red, green, blue));
}
