
// kcanvas' entry: step mode's block limit, then your paint with checked views.
extern "C" __global__ void kc_paint_checked(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t,
                                            KcCheck check) {
    if (check.max_blocks >= 0 && kc_block_in_launch() >= (unsigned long long)check.max_blocks) return;
    if (check.record.writers && kc_thread_in_block() == 0u) { // the block's SM, once, for the views
        const unsigned long long block = kc_block_in_launch();
        if (block < check.record.blocks) check.record.block_sm[block] = kc_sm();
    }
    const long long n = 1LL * width * height;
    const KcOut o = {out, n, width, height, check};
    const KcIn ia = {a, n, width, height, check.violation, 1};
    const KcIn ib = {b, n, width, height, check.violation, 2};
    paint(o, width, height, ia, ib, t);
}
