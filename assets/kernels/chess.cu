// Chess: the tutorial's drawChess, with its linear thread numbering
// The PyCUDA tutorial launches block (50,20,1) and grid (80,8) over 800x800: 640 blocks of 1000
// threads, one per pixel. Number the threads one after another, then turn the number into (x, y).
// Try the panel's "Tutorial" launch; any grid with at least width*height threads covers the canvas.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int block = blockIdx.x + blockIdx.y * gridDim.x;       // which block, counted row by row
    const int thread = threadIdx.y * blockDim.x + threadIdx.x;   // which thread inside the block
    const int i = block * (blockDim.x * blockDim.y) + thread;    // which pixel
    if (i >= width * height) return;

    // The tutorial's cell number is (i/80) + (i/800/80): 80-px cells, 10 x 10 on 800 x 800.
    // i/800/80 is the 80-row band (i/800 is the row). i/80 counts 80-px runs through the whole
    // picture; on 800 wide (10 runs a row, an even number) its parity is that of the run within
    // the row, (i%800)/80. Written with the row's own run, as here, the cells stay 80-px squares
    // on any width (i/80 alone would shift every other band where width/80 is not even).
    const int cell = 80;
    const int band = i / width / cell;  // the tutorial's i/800/80
    const int run = (i % width) / cell; // the tutorial's i/80, within the row
    const bool white = (run + band) % 2 == 1;
    store(out, i, white ? make_pixel(255, 255, 255) : make_pixel(0, 0, 0));
}
