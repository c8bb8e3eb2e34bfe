
// The kernel kcanvas launches with the panel's block and grid. out, a and b hold width*height
// pixels, row-major; a and b are the input images (else the gradient and the checkerboard);
// t is seconds since the start. Pixels your threads do not write stay hatched.
// Raw mode: out, a and b are plain pointers, nothing is checked: an index past the end writes
// memory that is not the canvas and can stop the GPU. Checked mode (the default) catches it.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t);
