#pragma once
// What one thread of a paint launch does, written once for the CUDA kernel and the CPU grid
// emulator: turn its indices into the pixel(s) it owns (the mapping), then write either the
// operation's value or a colour that identifies the thread (the view).
#include "gpu/block_time.h"
#include "gpu/launch_config.h"
#include "gpu/op_params.h"

namespace kc {

// What a pixel shows: the operation's result, or which thread wrote it.
// Start: when the pixel's block started, early to late (the SM timeline's view; it needs the
// launch's BlockTime record, and a pass after the kernel turns the block numbers into colours).
enum class View { Pixels, Block, Thread, Warp, Lane, Linear, Sm, Start };

// The built-in indices of one thread, as CUDA defines them.
struct ThreadCoords {
    unsigned bx, by, bz;    // blockIdx
    unsigned tx, ty, tz;    // threadIdx
    unsigned bdx, bdy, bdz; // blockDim
    unsigned gdx, gdy, gdz; // gridDim
};

KC_HD unsigned hash_u32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

// Per-pixel records a launch can keep besides the picture; null pointers keep nothing. Same
// memory space as the pixels (device memory for CUDA, host memory for the emulator).
struct PixelRecord {
    unsigned* sm = nullptr;      // the SM (emulator: worker) of the thread that wrote the pixel last
    unsigned* writes = nullptr;  // how many threads wrote the pixel; must start at zero
    BlockTime* blocks = nullptr; // per block in launch order: where and when it ran (the SM timeline)
};

KC_HD void count_write(unsigned* counter) {
#if defined(__CUDA_ARCH__)
    atomicAdd(counter, 1u);
#else
    __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED); // emulator workers may share a pixel (z layers)
#endif
}

// hue in degrees, saturation and value 0..255.
KC_HD Pixel hsv_pixel(int hue, int sat, int val) {
    hue = ((hue % 360) + 360) % 360;
    const int sector = hue / 60, f = (hue % 60) * 255 / 60;
    const int p = val * (255 - sat) / 255;
    const int q = val * (255 - sat * f / 255) / 255;
    const int t = val * (255 - sat * (255 - f) / 255) / 255;
    switch (sector) {
    case 0:
        return make_pixel(val, t, p);
    case 1:
        return make_pixel(q, val, p);
    case 2:
        return make_pixel(p, val, t);
    case 3:
        return make_pixel(p, q, val);
    case 4:
        return make_pixel(t, p, val);
    default:
        return make_pixel(val, p, q);
    }
}

// A saturated colour picked by a hash; `bright` alternates light and dark so that neighbours differ.
KC_HD Pixel id_colour(unsigned id, bool bright) {
    const unsigned h = hash_u32(id + 1);
    const int lo = bright ? 110 : 30, span = bright ? 145 : 110;
    return make_pixel(lo + static_cast<int>(h & 0xFF) * span / 255, lo + static_cast<int>((h >> 8) & 0xFF) * span / 255,
                      lo + static_cast<int>((h >> 16) & 0xFF) * span / 255);
}

// Colour `k` of a palette of `classes` colours: hues spread evenly, odd classes darker, and a small
// per-`id` jitter that keeps every block recognisable while classes k and k+-1 stay apart.
KC_HD Pixel class_colour(unsigned k, unsigned classes, unsigned id) {
    const unsigned h = hash_u32(id + 1);
    const int step = 360 / static_cast<int>(classes);
    const int hue = static_cast<int>(k) * step + static_cast<int>(h % 41) * step / 160 - step / 8; // +-1/8 step
    const int val = (k & 1) ? 150 + static_cast<int>((h >> 8) % 30) : 225 + static_cast<int>((h >> 8) % 31);
    const int sat = 170 + static_cast<int>((h >> 16) % 60);
    return hsv_pixel(hue, sat, val);
}

// How many colour classes the block view cycles through for a 1D mapping, so that blocks whose
// pixels touch (differences 1 and about width/threads, also across the grid-stride wrap) never
// share a class: the smallest count from 6 that divides none of those differences.
KC_HD unsigned block_colour_classes(Mapping mapping, unsigned long long threads_per_block, unsigned long long blocks,
                                    unsigned width) {
    if (threads_per_block == 0 || blocks == 0) return 6; // no launch: any count will do
    const unsigned long long q = width / threads_per_block;
    const unsigned long long diffs[4] = {1, q > 0 ? q - 1 : 0, q, q + 1};
    for (unsigned k = 6; k < 64; ++k) {
        bool ok = true;
        for (unsigned long long d : diffs) {
            if (mapping == Mapping::GridStride) d %= blocks; // block numbers wrap each pass
            if (d == 0) continue;
            if (d % k == 0 || (mapping == Mapping::GridStride && (blocks - d) % k == 0)) ok = false;
        }
        if (ok) return k;
    }
    return blocks < 0xFFFFFFFFULL ? static_cast<unsigned>(blocks) : 0xFFFFFFFFu; // every block its own class
}

KC_HD unsigned thread_in_block(const ThreadCoords& t) { return (t.tz * t.bdy + t.ty) * t.bdx + t.tx; }
// blockIdx flattened in launch order: x fastest, then y, then z.
KC_HD unsigned long long block_in_launch(const ThreadCoords& t) { return (1ULL * t.bz * t.gdy + t.by) * t.gdx + t.bx; }

// The PyCUDA tutorial's flattening; threadIdx.z and blockIdx.z take no part.
KC_HD unsigned long long linear_thread_index(const ThreadCoords& t) {
    return (1ULL * t.bx + 1ULL * t.by * t.gdx) * t.bdx * t.bdy + 1ULL * t.ty * t.bdx + t.tx;
}

KC_HD Pixel block_colour(const ThreadCoords& t, Mapping mapping, unsigned width) {
    const unsigned id = t.by * t.gdx + t.bx;
    // 2d and columns: blocks tile the picture as they tile the grid, so (bx + 3*by) mod 6 differs
    // for all eight neighbours. 1D mappings lay blocks along rows: cycle through classes that avoid the
    // differences between touching blocks.
    if (is_tiled(mapping)) return class_colour((t.bx + 3 * t.by) % 6, 6, id); // columns: the same, transposed
    const unsigned classes = block_colour_classes(mapping, 1ULL * t.bdx * t.bdy, 1ULL * t.gdx * t.gdy, width);
    return class_colour(id % classes, classes, id);
}

// Warps of a block: 8 colours with a hue step of 3/8 turn, so warps w and w+1 or w+2 (the ones
// above and below when a row is not a multiple of 32) stay far apart.
KC_HD Pixel warp_colour(unsigned warp) { return class_colour((warp * 3) % 8, 8, warp); }

KC_HD Pixel lane_colour(unsigned lane) {
    const int l = static_cast<int>(lane % 32);
    return make_pixel(l * 255 / 31, 255 - l * 255 / 31, 160);
}

// The start view paints each pixel with its block's number + 1 (0: no block wrote it), which
// start_view_pixel() then turns into the colour of the block's start time.
KC_HD Pixel block_number_pixel(const ThreadCoords& t) { return unpack(std::uint32_t(block_in_launch(t) + 1)); }

// The start view's ramp, early (f = 0, deep blue) through teal and green to late (f = 1, yellow).
KC_HD Pixel start_ramp_colour(float f) {
    constexpr unsigned char stops[5][3] = {{40, 20, 90}, {40, 80, 160}, {30, 150, 140}, {120, 200, 70}, {250, 230, 40}};
    f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
    const float at = f * 4.0f;
    const int i = at >= 4.0f ? 3 : static_cast<int>(at);
    const float u = at - static_cast<float>(i);
    auto mix = [&](int c) { return static_cast<int>(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * u + 0.5f); };
    return make_pixel(mix(0), mix(1), mix(2));
}

// A start-view pixel (block number + 1, as painted) as the colour of its block's start between
// `first` and `last` (the launch's earliest and latest start); uncovered when no recorded block wrote it.
KC_HD Pixel start_view_pixel(Pixel painted, const BlockTime* blocks, unsigned long long count, unsigned long long first,
                             unsigned long long last, int x, int y) {
    const unsigned long long number = pack(painted);
    if (number == 0 || number > count || !blocks[number - 1].ran) return uncovered_pixel(x, y);
    const unsigned long long span = last > first ? last - first : 1;
    return start_ramp_colour(static_cast<float>(double(blocks[number - 1].start - first) / double(span)));
}

KC_HD Pixel view_colour(View view, const ThreadCoords& t, unsigned sm, Mapping mapping = Mapping::TwoD,
                        unsigned width = 0) {
    switch (view) {
    case View::Block:
        return block_colour(t, mapping, width);
    case View::Thread:
        return make_pixel(t.bdx > 1 ? static_cast<int>(t.tx * 255 / (t.bdx - 1)) : 0,
                          t.bdy > 1 ? static_cast<int>(t.ty * 255 / (t.bdy - 1)) : 0, 96);
    case View::Warp:
        return warp_colour(thread_in_block(t) / 32);
    case View::Lane:
        return lane_colour(thread_in_block(t) % 32);
    case View::Linear: {
        const unsigned long long total = 1ULL * t.bdx * t.bdy * t.gdx * t.gdy;
        const int v = static_cast<int>(linear_thread_index(t) * 255ULL / (total > 1 ? total - 1 : 1));
        return make_pixel(v, v, 255 - v / 2);
    }
    case View::Sm:
        return id_colour(1000 + sm, (sm & 1) != 0);
    case View::Start:
        return block_number_pixel(t);
    case View::Pixels:
        break;
    }
    return Pixel{0, 0, 0, 255};
}

// The pixel a thread of a tiled mapping owns (before the bounds check): 2d walks x with
// blockIdx.x/threadIdx.x, columns walks y with them, so a warp's lanes step down a column.
struct PixelXY {
    unsigned x, y;
};
KC_HD PixelXY tiled_pixel(Mapping mapping, const ThreadCoords& t) {
    const unsigned u = t.bx * t.bdx + t.tx, v = t.by * t.bdy + t.ty;
    return mapping == Mapping::Columns ? PixelXY{v, u} : PixelXY{u, v};
}

// Which of paint_thread's three ways of owning pixels a thread takes. Any decides from the
// mapping at run time (the emulator, the teaching kernel); a kernel that fixes the path at compile
// time carries only that path's instructions and registers, and a one-pixel kernel needs few
// registers to keep the SM full of the loads and stores that a memory-bound op lives on.
enum class PaintPath { Any, Quad, Tiled, Linear };

KC_HD PaintPath paint_path(Mapping mapping, int pixels_per_thread) {
    if (mapping == Mapping::TwoD && pixels_per_thread == 4) return PaintPath::Quad;
    return is_tiled(mapping) ? PaintPath::Tiled : PaintPath::Linear;
}

// Where paint_thread puts its pixels. This one: width*height pixels in memory, row-major (the
// kernels' linear buffer, the emulator's host pixels). The other, SurfaceSink in cuda_paint.cu,
// writes the mapped GL texture itself. A sink takes pixel (x, y) with its row-major index `i`, and
// four neighbours in x at once where puts_quads() allows one wide store.
struct LinearSink {
    Pixel* pixels;
    KC_HD void put(unsigned x, unsigned y, unsigned long long i, Pixel v) const {
        (void)x, (void)y;
        store_pixel(pixels + i, v);
    }
    // 16-byte stores need each row's start 16-byte aligned: a width that is a multiple of 4.
    KC_HD bool puts_quads(unsigned width) const { return (width & 3) == 0; }
    KC_HD void put_quad(unsigned x0, unsigned y, unsigned i, Pixel a, Pixel b, Pixel c, Pixel d) const {
        (void)x0, (void)y;
        store_quad(pixels + i, a, b, c, d);
    }
};

// One thread's work, into `out` (a sink, above). kPlainPixels compiles out the teaching machinery
// (views, writer records) for the common case, where it costs time in a memory-bound kernel; the
// pixels written are the same. kPath fixes the path at compile time (it must be what paint_path()
// gives for this mapping); Any picks it at run time.
template <class Op, bool kPlainPixels = false, PaintPath kPath = PaintPath::Any, class Sink = LinearSink>
KC_HD void paint_thread(const Op& op, const OpParams& p, const ThreadCoords& t, Mapping mapping, int pixels_per_thread,
                        View view, unsigned sm, const Sink& out, PixelRecord record = {}) {
    const bool pixels_view = kPlainPixels || view == View::Pixels;
    const Pixel identity = pixels_view ? Pixel{} : view_colour(view, t, sm, mapping, static_cast<unsigned>(p.width));
    auto keep = [&](unsigned long long i) {
        if constexpr (!kPlainPixels) {
            if (record.sm) record.sm[i] = sm;
            if (record.writes) count_write(record.writes + i);
        }
    };
    const PaintPath path = kPath == PaintPath::Any ? paint_path(mapping, pixels_per_thread) : kPath;
    // One pixel a thread: each image read prefetches further down (sources.h). Four a thread have
    // four loads in flight already, and four prefetches a thread would cost more than they give.
    OpParams params = p;
    params.prefetch_rows = path == PaintPath::Quad ? 0 : kPrefetchRows;
    auto value = [&](unsigned x, unsigned y) {
        return pixels_view ? op(static_cast<int>(x), static_cast<int>(y), params) : identity;
    };
    const unsigned width = static_cast<unsigned>(p.width), height = static_cast<unsigned>(p.height);
    if (path == PaintPath::Quad) {
        // Four neighbours in x; one 16-byte store when the sink allows it.
        const unsigned x0 = (t.bx * t.bdx + t.tx) * 4u;
        const unsigned y = t.by * t.bdy + t.ty;
        if (x0 >= width || y >= height) return;
        const unsigned row = y * width; // canvases hold at most 2^28 pixels: 32-bit indices
        if (x0 + 3 < width && out.puts_quads(width)) {
            out.put_quad(x0, y, row + x0, value(x0, y), value(x0 + 1, y), value(x0 + 2, y), value(x0 + 3, y));
            for (unsigned k = 0; k < 4; ++k) keep(row + x0 + k);
        } else {
            for (unsigned x = x0; x < x0 + 4 && x < width; ++x) {
                out.put(x, y, row + x, value(x, y));
                keep(row + x);
            }
        }
        return;
    }
    if (path == PaintPath::Tiled) {
        const auto [x, y] = tiled_pixel(mapping, t);
        if (x >= width || y >= height) return;
        const unsigned i = y * width + x;
        out.put(x, y, i, value(x, y));
        keep(i);
        return;
    }
    unsigned long long i = linear_thread_index(t);
    const unsigned long long pixels = 1ULL * width * height;
    const unsigned long long stride =
        mapping == Mapping::GridStride ? 1ULL * t.bdx * t.bdy * t.gdx * t.gdy : pixels; // Linear: one pass
    for (; i < pixels; i += stride) {
        const unsigned y = p.by_width(static_cast<std::uint32_t>(i)); // i < 2^28: FastDiv is exact
        const unsigned x = static_cast<unsigned>(i - 1ULL * y * p.width);
        out.put(x, y, i, value(x, y));
        keep(i);
    }
}

} // namespace kc
