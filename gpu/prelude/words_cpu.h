// One 32-bit load or store per pixel, as on the GPU (words_gpu.cuh).
__device__ inline Pixel kc_load_word(const Pixel* p) {
    Pixel q;
    __builtin_memcpy(&q, p, sizeof q);
    return q;
}
__device__ inline void kc_store_word(Pixel* p, Pixel v) { __builtin_memcpy(p, &v, sizeof v); }
