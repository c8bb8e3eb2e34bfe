// Fix me: a kernel with an indexing bug (an exercise)
// This should paint the whole canvas in stripes, but with the default block (32x8) most of the
// canvas stays hatched and some stripes are painted twice. Find the bug, fix it, press Compile.
// (Hint: which size of the block moves x from one block to the next? The answer is behind the
// panel's "Show answer" button, and at the end of assets/kernels/fix_me.cu.)
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.y + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    const int stripe = (x / 16) % 2;
    store(out, y * width + x, stripe ? make_pixel(250, 200, 40) : make_pixel(40, 120, 220));
}
// A second bug to look for in your own kernels: "if (x > width || y > height) return;" lets
// x == width through, which writes the first pixel of the next row, and y == height writes past
// the end of the image: a memory error that can stop the GPU.
//
// Answer: blockIdx.x * blockDim.x + threadIdx.x. With blockDim.y (8) instead of blockDim.x (32),
// neighbouring blocks overlap by 24 columns and the grid reaches only a quarter of the width.
