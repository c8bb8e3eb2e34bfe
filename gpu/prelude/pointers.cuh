// Pixel i of an image (i = y * width + x): one 32-bit read-only load.
__device__ inline Pixel load(const Pixel* image, long long i) { return kc_load_word(image + i); }
// Writes pixel i of an image with one 32-bit store (out[i] = p may become four byte stores).
__device__ inline void store(Pixel* image, long long i, Pixel p) { kc_store_word(image + i, p); }
