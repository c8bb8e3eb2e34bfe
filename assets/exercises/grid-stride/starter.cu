// Grid-stride: a small fixed grid paints the whole canvas (an exercise)
// kcanvas exercise starter grid-stride; grade it with: kcanvas exercise check grid-stride --kernel FILE
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int block = blockIdx.y * gridDim.x + blockIdx.x;
    const int thread = threadIdx.y * blockDim.x + threadIdx.x;
    const long long first = 1LL * block * (blockDim.x * blockDim.y) + thread;
    // TODO: the grid has far fewer threads than the canvas has pixels. Loop: paint pixel i, then
    // i + (the number of threads in the grid), ... while i < width * height.
    const long long i = first;
    if (i >= 1LL * width * height) return;
    const int x = int(i % width), y = int(i / width);
    const bool white = (x / 50 + y / 50) % 2 == 1;
    store(out, i, white ? make_pixel(255, 255, 255) : make_pixel(0, 0, 0));
}
