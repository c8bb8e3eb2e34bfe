
// Checked mode (the default): out, a and b reach your kernel as checked views of the canvas and
// of the input images. Every access through them is bounds-checked:
//   out[i], out(x, y)            a pixel of the canvas, as a reference: out[i] = p; out[i].r = 255;
//   a[i], a(x, y), b[i], b(x, y) a pixel of an input image, as a value
//   load(a, i), store(out, i, p) the same as functions (one 32-bit load or store)
//   out.width, out.height        the canvas' size; out.size() = width * height
// An index outside 0 .. width*height-1, or x, y outside the canvas, writes nothing, and a read
// gets poison magenta (255, 0, 255); kcanvas names the first such access of each frame with the
// thread that made it, and counts the rest. out[i] counts as a write.
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


// Counts an out-of-range access; the launch's first is named in full.
__device__ inline void kc_report(KcViolation* v, int write, int image, long long index, int x, int y, int width,
                                 int height) {
    if (!kc_count_first(&v->count)) return;
    v->claimed = 1u, v->write = write, v->image = image, v->index = index, v->x = x, v->y = y;
    v->width = width, v->height = height;
    v->block[0] = blockIdx.x, v->block[1] = blockIdx.y, v->block[2] = blockIdx.z;
    v->thread[0] = threadIdx.x, v->thread[1] = threadIdx.y, v->thread[2] = threadIdx.z;
    v->block_dim[0] = blockDim.x, v->block_dim[1] = blockDim.y, v->block_dim[2] = blockDim.z;
    v->grid_dim[0] = gridDim.x, v->grid_dim[1] = gridDim.y, v->grid_dim[2] = gridDim.z;
}

// Records this thread as a writer of pixel i (KcRecord's layout).
__device__ inline void kc_note_writer(const KcRecord& r, long long i) {
    const unsigned long long block = kc_block_in_launch();
    const unsigned me =
        (unsigned)((block * (blockDim.x * blockDim.y * blockDim.z) + kc_thread_in_block() + 1) & 0x0FFFFFFFu);
    const unsigned old = kc_load_fresh(r.writers + i);
    unsigned count = old >> 28;
    if ((old & 0x0FFFFFFFu) != me) ++count;     // someone else (or nobody) wrote it before
    count += (unsigned)(kc_lanes_on(i) - 1);      // lanes of this warp writing it in the same store
    r.writers[i] = (count > 15u ? 15u : count) << 28 | me;
    if (block < r.blocks) r.block_sm[block] = kc_sm();
}

// The canvas, as `out`.
struct KcOut {
    Pixel* pixels;
    long long n;
    int width, height;
    KcCheck check;
    mutable Pixel scratch; // where refused and record-only writes go

    __device__ long long size() const { return n; }
    __device__ Pixel* data() const { return pixels; }
    __device__ operator Pixel*() const { return pixels; }

    __device__ Pixel& at(long long i, int x, int y) const {
        if (i < 0 || i >= n) {
            kc_report(check.violation, 1, 0, i, x, y, width, height);
            return scratch;
        }
        if (check.record.writers) {
            kc_note_writer(check.record, i);
            if (check.identity) return scratch; // the canvas holds the record, not pixels
        }
        return pixels[i];
    }
    template <class I>
    __device__ Pixel& operator[](I i) const {
        return at((long long)i, KC_NO_XY, KC_NO_XY);
    }
    __device__ Pixel& operator()(int x, int y) const {
        if (x < 0 || y < 0 || x >= width || y >= height) {
            kc_report(check.violation, 1, 0, 1LL * y * width + x, x, y, width, height);
            return scratch;
        }
        return at(1LL * y * width + x, x, y);
    }
    __device__ void put(long long i, Pixel p) const {
        Pixel& target = at(i, KC_NO_XY, KC_NO_XY);
        if (&target != &scratch) kc_store_word(&target, p);
    }
    __device__ Pixel get(long long i) const {
        if (i >= 0 && i < n) return kc_load_word(pixels + i);
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

    __device__ long long size() const { return n; }
    __device__ const Pixel* data() const { return pixels; }
    __device__ operator const Pixel*() const { return pixels; }

    __device__ Pixel get(long long i, int x, int y) const {
        if (i >= 0 && i < n) return kc_load_word(pixels + i);
        kc_report(violation, 0, image, i, x, y, width, height);
        return kc_poison();
    }
    template <class I>
    __device__ Pixel operator[](I i) const {
        return get((long long)i, KC_NO_XY, KC_NO_XY);
    }
    __device__ Pixel operator()(int x, int y) const {
        if (x >= 0 && y >= 0 && x < width && y < height) return get(1LL * y * width + x, x, y);
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
