
// Checked mode (the default): out, a and b reach your kernel as checked views of the canvas and
// of the input images. Every access through them is bounds-checked:
//   out[i], out(x, y)            a pixel of the canvas, as a reference: out[i] = p; out[i].r = 255;
//   a[i], a(x, y), b[i], b(x, y) a pixel of an input image, as a value
//   load(a, i), store(out, i, p) the same as functions (one 32-bit load or store)
//   out.width, out.height        the canvas' size; out.size() = width * height
// An index outside 0 .. width*height-1, or x, y outside the canvas, writes nothing, and a read
// gets poison magenta (255, 0, 255); kcanvas names the first such access of each frame (that of
// the thread earliest in launch order) with the thread, and counts the rest. out[i] is a write.
// Not checked: raw pointers. out.data(), &out[i] + k, and out passed to a function of yours
// that takes Pixel* are plain pointers again (raw pointer arithmetic is yours to get right).
// Raw mode (the Mode switch, --kernel-mode raw) compiles out, a and b as plain pointers, as
// your kernel is timed without checks.

__device__ inline Pixel kc_poison() { return make_pixel(255, 0, 255); }

__device__ inline unsigned long long kc_block_in_launch() {
    return (1ULL * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}
__device__ inline unsigned kc_thread_in_block() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

// Whether index i is outside 0 .. n-1: one unsigned compare, a negative i being a huge one.
__device__ inline bool kc_outside(long long i, long long n) { return (unsigned long long)i >= (unsigned long long)n; }

// Fills the named access's fields under a lock, unless a thread earlier than `rank` has come since.
// Out of line and apart from kc_report: its registers then do not count against every checked
// kernel's (in one function with kc_report, blend's kernel took 40 registers instead of 32).
__device__ __noinline__ void kc_name(KcViolation* v, unsigned long long rank, int write, int image, long long index,
                                     int x, int y, int width, int height) {
    while (kc_atomic_cas(&v->lock, 0u, 1u) != 0u) {
    }
    if (*(volatile unsigned long long*)&v->first_rank == rank) {
        v->claimed = 1u, v->write = write, v->image = image, v->index = index, v->x = x, v->y = y;
        v->width = width, v->height = height;
        v->block[0] = blockIdx.x, v->block[1] = blockIdx.y, v->block[2] = blockIdx.z;
        v->thread[0] = threadIdx.x, v->thread[1] = threadIdx.y, v->thread[2] = threadIdx.z;
        v->block_dim[0] = blockDim.x, v->block_dim[1] = blockDim.y, v->block_dim[2] = blockDim.z;
        v->grid_dim[0] = gridDim.x, v->grid_dim[1] = gridDim.y, v->grid_dim[2] = gridDim.z;
    }
    kc_fence();
    kc_atomic_exch(&v->lock, 0u);
}

// Counts an out-of-range access and names the launch's first in launch order (the earliest thread's
// first), whichever thread gets here first. Out of line: the views' fast path keeps only a compare
// and a branch.
__device__ __noinline__ void kc_report(KcViolation* v, int write, int image, long long index, int x, int y, int width,
                                       int height) {
    if (!kc_count_and_lead(&v->count)) return; // a warp's first lane is its earliest thread
    const unsigned long long rank =
        ~(kc_block_in_launch() * (blockDim.x * blockDim.y * blockDim.z) + kc_thread_in_block());
    if (atomicMax(&v->first_rank, rank) >= rank) return; // an earlier thread, or this one before, is named
    kc_name(v, rank, write, image, index, x, y, width, height);
}

// This thread's number in the launch plus one, as KcRecord keeps it (28 bits).
__device__ inline unsigned kc_writer_number() {
    const unsigned long long block = kc_block_in_launch();
    return (unsigned)((block * (blockDim.x * blockDim.y * blockDim.z) + kc_thread_in_block() + 1) & 0x0FFFFFFFu);
}

// Records this thread as a writer of pixel i (KcRecord's layout). One atomic exchange puts this
// thread in with a count of 1 and returns the word before; only where someone else had written
// the pixel, an add carries their count over (exact under any interleaving: each writer adds the
// count it displaced). A thread writing its pixel again (out[i].r, then out[i].g) counts once.
// Each block's SM is noted once, by the entry (entry_checked.cuh), not by every write.
__device__ inline void kc_note_writer(const KcRecord& r, long long i) {
    const unsigned me = kc_writer_number();
    const unsigned old = kc_atomic_exch(r.writers + i, 1u << 28 | me);
    if (old != 0u) {
        const unsigned carried = (old >> 28) - ((old & 0x0FFFFFFFu) == me ? 1u : 0u);
        if (carried) kc_atomic_add(r.writers + i, (carried < 14u ? carried : 14u) << 28); // 15: 15 or more
    }
}

// Grading compiles (KC_COUNT_ACCESSES, `kcanvas exercise check`) count each thread's global reads
// and writes through the views in a counter on the entry's stack; a normal compile has none of it.
#ifdef KC_COUNT_ACCESSES
struct KcCounts {
    unsigned reads, writes;
};
#define KC_COUNTS_MEMBER KcCounts* counts;
#define KC_COUNT(view, what) (++(view).counts->what)
#else
#define KC_COUNTS_MEMBER
#define KC_COUNT(view, what) ((void)0)
#endif

// Where a view's writes go while the record is what shows (KcCheck::identity): a word per thread
// of a small window, so a warp's stores land in one L2-resident line instead of the canvas.
__device__ Pixel kc_discarded[4096];

// Where refused writes go: one word every thread shares, touched only on the error path (a
// scratch pixel in each view would put the views in local memory, a slow path for every access).
__device__ Pixel kc_refused_pixel;

// The canvas, as `out`.
struct KcOut {
    Pixel* pixels;
    long long n;
    int width, height;
    KcCheck check;
    KC_COUNTS_MEMBER

    __device__ long long size() const { return n; }
    __device__ Pixel* data() const { return pixels; }
    __device__ operator Pixel*() const { return pixels; }

    __device__ Pixel& at(long long i, int x, int y) const {
        KC_COUNT(*this, writes);
        if (__builtin_expect(kc_outside(i, n), 0)) {
            kc_report(check.violation, 1, 0, i, x, y, width, height);
            kc_refused_pixel = kc_poison(); // what a read through the reference sees
            return kc_refused_pixel;
        }
        if (!check.record.writers) return pixels[i];
        kc_note_writer(check.record, i);
        return check.identity ? kc_discarded[kc_writer_number() & 4095u] : pixels[i];
    }
    template <class I>
    __device__ Pixel& operator[](I i) const {
        return at((long long)i, KC_NO_XY, KC_NO_XY);
    }
    __device__ Pixel& operator()(int x, int y) const {
        if (x >= 0 && y >= 0 && x < width && y < height) return at(1LL * y * width + x, x, y);
        KC_COUNT(*this, writes);
        kc_report(check.violation, 1, 0, 1LL * y * width + x, x, y, width, height);
        kc_refused_pixel = kc_poison();
        return kc_refused_pixel;
    }
    __device__ void put(long long i, Pixel p) const {
        KC_COUNT(*this, writes);
        if (kc_outside(i, n)) {
            kc_report(check.violation, 1, 0, i, KC_NO_XY, KC_NO_XY, width, height);
            return;
        }
        if (check.record.writers) kc_note_writer(check.record, i);
        if (!check.identity) kc_store_word(pixels + i, p);
    }
    __device__ Pixel get(long long i) const {
        KC_COUNT(*this, reads);
        if (!kc_outside(i, n)) return kc_load_word(pixels + i);
        kc_report(check.violation, 0, 0, i, KC_NO_XY, KC_NO_XY, width, height);
        return kc_poison();
    }
};

// An input image, as `a` or `b`.
struct KcIn {
    const Pixel* pixels;
    long long n;
    int width, height;
    KcViolation* violation;
    int image; // 1: a, 2: b
    KC_COUNTS_MEMBER

    __device__ long long size() const { return n; }
    __device__ const Pixel* data() const { return pixels; }
    __device__ operator const Pixel*() const { return pixels; }

    __device__ Pixel get(long long i, int x, int y) const {
        KC_COUNT(*this, reads);
        if (!kc_outside(i, n)) return kc_load_word(pixels + i);
        kc_report(violation, 0, image, i, x, y, width, height);
        return kc_poison();
    }
    template <class I>
    __device__ Pixel operator[](I i) const {
        return get((long long)i, KC_NO_XY, KC_NO_XY);
    }
    __device__ Pixel operator()(int x, int y) const {
        if (x >= 0 && y >= 0 && x < width && y < height) return get(1LL * y * width + x, x, y);
        KC_COUNT(*this, reads);
        kc_report(violation, 0, image, 1LL * y * width + x, x, y, width, height);
        return kc_poison();
    }
};

__device__ inline Pixel load(const KcIn& image, long long i) { return image.get(i, KC_NO_XY, KC_NO_XY); }
__device__ inline Pixel load(const KcOut& image, long long i) { return image.get(i); }
__device__ inline void store(const KcOut& image, long long i, Pixel p) { image.put(i, p); }

// Your paint below takes KcOut out and KcIn a, b where you wrote Pixel* and const Pixel*
// (kcanvas changes only those words of its signature); kcanvas launches it through
// kc_paint_checked at the end.
