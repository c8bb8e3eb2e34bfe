// Bounds: diagonal stripes, and a bounds check to add (an exercise)
// kcanvas exercise starter bounds; grade it with: kcanvas exercise check bounds --kernel FILE
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    // TODO: the grid is rounded up: some threads have no pixel.

    const bool orange = ((x + y) / 24) % 2 == 0;
    store(out, y * width + x, orange ? make_pixel(250, 200, 40) : make_pixel(40, 120, 220));
}
