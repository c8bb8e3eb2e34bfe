// Box blur: the mean of the 5x5 window, from a tile in shared memory (the solution)
// Launched with 16x16 blocks: the tile is the block's 16x16 pixels and a 2-pixel apron.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int r = 2, block = 16, side = block + 2 * r; // a 20x20 tile
    __shared__ Pixel tile[20 * 20];
    const int x0 = blockIdx.x * block - r, y0 = blockIdx.y * block - r; // the tile's corner on the canvas
    const int me = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = me; k < side * side; k += blockDim.x * blockDim.y) {
        const int u = min(max(x0 + k % side, 0), width - 1), v = min(max(y0 + k / side, 0), height - 1);
        tile[k] = a(u, v); // clamp-to-edge
    }
    __syncthreads(); // the whole tile is loaded before anyone reads it

    const int x = blockIdx.x * block + threadIdx.x, y = blockIdx.y * block + threadIdx.y;
    if (x >= width || y >= height) return; // after the barrier: every thread helped load
    int sr = 0, sg = 0, sb = 0;
    for (int dy = 0; dy <= 2 * r; ++dy)
        for (int dx = 0; dx <= 2 * r; ++dx) {
            const Pixel p = tile[(threadIdx.y + dy) * side + threadIdx.x + dx];
            sr += p.r, sg += p.g, sb += p.b;
        }
    const int n = (2 * r + 1) * (2 * r + 1);
    store(out, y * width + x, make_pixel((sr + n / 2) / n, (sg + n / 2) / n, (sb + n / 2) / n));
}
