// Transpose: the gradient written row by row, coalesced (the solution)
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    // threadIdx.x picks the column: a warp's 32 stores are 32 neighbouring pixels of one row.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    const int blue = 255 - 255 * y / height;
    const int green = 255 - 255 * x / width;
    const int red = 128 - 128 * y / height;
    store(out, y * width + x, make_pixel(red, green, blue));
}
