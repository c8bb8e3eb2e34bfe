// Blend: 3/4 of image A plus 1/4 of image B, the tutorial's merge
// a and b are the input images (drop pictures on the window), else the gradient and the
// checkerboard. Both have the canvas' size, so pixel i of a lies under pixel i of out.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int i = y * width + x;

    const Pixel pa = load(a, i), pb = load(b, i);
    const float w = 0.75f;
    store(out, i, make_pixel(int(w * pa.r + (1.0f - w) * pb.r + 0.5f),  // or: mix(pa, pb, w)
                             int(w * pa.g + (1.0f - w) * pb.g + 0.5f),
                             int(w * pa.b + (1.0f - w) * pb.b + 0.5f)));
}
