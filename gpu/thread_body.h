#pragma once
// What one thread of a paint launch does, written once for the CUDA kernel and the CPU grid
// emulator: turn its indices into the pixel(s) it owns (the mapping), then write either the
// operation's value or a colour that identifies the thread (the view).
#include "launch_config.h"
#include "op_params.h"

namespace kc {

// What a pixel shows: the operation's result, or which thread wrote it.
enum class View { Pixels, Block, Thread, Warp, Lane, Linear, Sm };

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

// A saturated colour picked by a hash; `bright` alternates light and dark so that neighbours differ.
KC_HD Pixel id_colour(unsigned id, bool bright) {
    const unsigned h = hash_u32(id + 1);
    const int lo = bright ? 110 : 30, span = bright ? 145 : 110;
    return make_pixel(lo + static_cast<int>(h & 0xFF) * span / 255, lo + static_cast<int>((h >> 8) & 0xFF) * span / 255,
                      lo + static_cast<int>((h >> 16) & 0xFF) * span / 255);
}

KC_HD unsigned thread_in_block(const ThreadCoords& t) { return (t.tz * t.bdy + t.ty) * t.bdx + t.tx; }

// The PyCUDA tutorial's flattening; threadIdx.z and blockIdx.z take no part.
KC_HD unsigned long long linear_thread_index(const ThreadCoords& t) {
    return (1ULL * t.bx + 1ULL * t.by * t.gdx) * t.bdx * t.bdy + 1ULL * t.ty * t.bdx + t.tx;
}

KC_HD Pixel view_colour(View view, const ThreadCoords& t, unsigned sm) {
    switch (view) {
    case View::Block: return id_colour(t.by * t.gdx + t.bx, ((t.bx + t.by) & 1) != 0);
    case View::Thread:
        return make_pixel(t.bdx > 1 ? static_cast<int>(t.tx * 255 / (t.bdx - 1)) : 0,
                          t.bdy > 1 ? static_cast<int>(t.ty * 255 / (t.bdy - 1)) : 0, 96);
    case View::Warp: {
        const unsigned warp = thread_in_block(t) / 32;
        return id_colour(warp, (warp & 1) != 0);
    }
    case View::Lane: {
        const int lane = static_cast<int>(thread_in_block(t) % 32);
        return make_pixel(lane * 255 / 31, 255 - lane * 255 / 31, 160);
    }
    case View::Linear: {
        const unsigned long long total = 1ULL * t.bdx * t.bdy * t.gdx * t.gdy;
        const int v = static_cast<int>(linear_thread_index(t) * 255ULL / (total > 1 ? total - 1 : 1));
        return make_pixel(v, v, 255 - v / 2);
    }
    case View::Sm: return id_colour(1000 + sm, (sm & 1) != 0);
    case View::Pixels: break;
    }
    return Pixel{0, 0, 0, 255};
}

// One thread's work. `out` is width*height pixels, row-major.
template <class Op>
KC_HD void paint_thread(const Op& op, const OpParams& p, const ThreadCoords& t, Mapping mapping, View view,
                        unsigned sm, Pixel* out) {
    const Pixel identity = view == View::Pixels ? Pixel{} : view_colour(view, t, sm);
    const unsigned long long pixels = 1ULL * p.width * p.height;
    if (mapping == Mapping::TwoD) {
        const unsigned x = t.bx * t.bdx + t.tx;
        const unsigned y = t.by * t.bdy + t.ty;
        if (x >= static_cast<unsigned>(p.width) || y >= static_cast<unsigned>(p.height)) return;
        out[1ULL * y * p.width + x] = view == View::Pixels ? op(static_cast<int>(x), static_cast<int>(y), p) : identity;
        return;
    }
    unsigned long long i = linear_thread_index(t);
    const unsigned long long stride =
        mapping == Mapping::GridStride ? 1ULL * t.bdx * t.bdy * t.gdx * t.gdy : pixels; // Linear: one pass
    for (; i < pixels; i += stride) {
        const int x = static_cast<int>(i % p.width);
        const int y = static_cast<int>(i / p.width);
        out[i] = view == View::Pixels ? op(x, y, p) : identity;
    }
}

} // namespace kc
