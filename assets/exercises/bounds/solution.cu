// Bounds: diagonal stripes, with the bounds check (the solution)
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return; // the blocks that stick out past the canvas

    const bool orange = ((x + y) / 24) % 2 == 0;
    store(out, y * width + x, orange ? make_pixel(250, 200, 40) : make_pixel(40, 120, 220));
}
