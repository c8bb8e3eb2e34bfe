
// kcanvas' entry: step mode's block limit, then your paint with checked views.
extern "C" __global__ void kc_paint_checked(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t,
                                            KcCheck check) {
    if (check.max_blocks >= 0 && kc_block_in_launch() >= (unsigned long long)check.max_blocks) return;
    if (check.record.writers && kc_thread_in_block() == 0u) { // the block's SM, once, for the views
        const unsigned long long block = kc_block_in_launch();
        if (block < check.record.blocks) check.record.block_sm[block] = kc_sm();
    }
    const long long n = 1LL * width * height;
#ifdef KC_COUNT_ACCESSES
    KcCounts counts = {0u, 0u};
    const KcOut o = {out, n, width, height, check, &counts};
    const KcIn ia = {a, n, width, height, check.violation, 1, &counts};
    const KcIn ib = {b, n, width, height, check.violation, 2, &counts};
#else
    const KcOut o = {out, n, width, height, check};
    const KcIn ia = {a, n, width, height, check.violation, 1};
    const KcIn ib = {b, n, width, height, check.violation, 2};
#endif
    paint(o, width, height, ia, ib, t);
#ifdef KC_COUNT_ACCESSES
    // This thread's counts into the launch's maxima (a thread that returned early gets here too).
    const unsigned long long me =
        (kc_block_in_launch() * (blockDim.x * blockDim.y * blockDim.z) + kc_thread_in_block()) & 0xFFFFFFFFull;
    if (counts.reads) atomicMax(&check.violation->most_reads, (unsigned long long)counts.reads << 32 | me);
    if (counts.writes) atomicMax(&check.violation->most_writes, (unsigned long long)counts.writes << 32 | me);
#endif
}
