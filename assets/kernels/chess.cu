// Chess: the tutorial's drawChess, with its linear thread numbering
// The PyCUDA tutorial launches block (50,20,1) and grid (80,8) over 800x800: 640 blocks of 1000
// threads, one per pixel. Number the threads one after another, then turn the number into (x, y).
// Try the panel's "Tutorial" launch; any grid with at least width*height threads covers the canvas.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int block = blockIdx.x + blockIdx.y * gridDim.x;       // which block, counted row by row
    const int thread = threadIdx.y * blockDim.x + threadIdx.x;   // which thread inside the block
    const int i = block * (blockDim.x * blockDim.y) + thread;    // which pixel
    if (i >= width * height) return;
    const int x = i % width, y = i / width;

    const int cell = 100; // 8 x 8 squares on 800 x 800
    const bool white = (x / cell + y / cell) % 2 == 1;
    store(out, i, white ? make_pixel(255, 255, 255) : make_pixel(0, 0, 0));
}
