// Transpose: the gradient written column by column, uncoalesced (an exercise)
// kcanvas exercise starter transpose; grade it with: kcanvas exercise check transpose --kernel FILE
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    // TODO: threadIdx.x walks down a column here: a warp's 32 stores land in 32 rows.
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    const int x = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    const int blue = 255 - 255 * y / height;
    const int green = 255 - 255 * x / width;
    const int red = 128 - 128 * y / height;
    store(out, y * width + x, make_pixel(red, green, blue));
}
