// One 32-bit load or store per pixel (a struct of bytes may otherwise become four byte accesses).
__device__ inline Pixel kc_load_word(const Pixel* p) {
    const unsigned v = __ldg(reinterpret_cast<const unsigned*>(p));
    Pixel q;
    q.b = (unsigned char)v, q.g = (unsigned char)(v >> 8), q.r = (unsigned char)(v >> 16),
    q.a = (unsigned char)(v >> 24);
    return q;
}
__device__ inline void kc_store_word(Pixel* p, Pixel v) {
    *reinterpret_cast<unsigned*>(p) = v.b | v.g << 8 | v.r << 16 | (unsigned)v.a << 24;
}
