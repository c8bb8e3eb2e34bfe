#pragma once
// The host's side of the user kernel's checked mode (gpu/prelude/checked.cuh): the out-of-range
// accesses a frame reported, in words, and the per-pixel writer record, decoded. Shared by the
// GPU (NVRTC) and the CPU backend's compiled kernels, which fill the same structs.
#include <string>

#include "gpu/launch_config.h"
#include "gpu/pixel.h"
#include "gpu/prelude/kcanvas_check_abi.h"
#include "gpu/thread_body.h"

namespace kc {

// What checked mode found in one frame: `count` out-of-range accesses, the first in full.
struct KernelViolations {
    unsigned count = 0;
    KcViolation first{};
    int width = 0, height = 0; // the canvas the frame painted
};

// "thread (12,3) of block (79,7) wrote out[641000]: past the end (800x800 = 640000 pixels); its
// x = blockIdx.x*blockDim.x + threadIdx.x = 812 >= width 800", then how many more there were.
// Empty when count is 0.
std::string describe(const KernelViolations& v);

// Threads a launch may have for the writer record to number them (KcRecord: 28 bits, less one).
inline constexpr unsigned long long kMaxRecordedThreads = (1ULL << 28) - 2;

// A record word's writer, decoded with the launch's block and grid.
struct RecordedWriter {
    bool written = false;  // false: no thread wrote the pixel (the rest is unset)
    unsigned writers = 0;  // how many threads wrote it (15 means 15 or more)
    ThreadCoords thread{}; // the last writer's blockIdx, threadIdx, blockDim, gridDim
    unsigned long long block_in_launch = 0;
    unsigned thread_in_block = 0;
};

KC_HD RecordedWriter decode_writer(unsigned word, const Dim3& block, const Dim3& grid) {
    RecordedWriter w;
    if (word == 0u) return w;
    w.written = true;
    w.writers = word >> 28;
    const unsigned long long global = (word & 0x0FFFFFFFu) - 1u;
    const unsigned long long per_block = 1ULL * block.x * block.y * block.z;
    w.block_in_launch = global / per_block;
    w.thread_in_block = static_cast<unsigned>(global % per_block);
    const unsigned bx = static_cast<unsigned>(block.x), by = static_cast<unsigned>(block.y);
    const unsigned gx = static_cast<unsigned>(grid.x), gy = static_cast<unsigned>(grid.y);
    ThreadCoords& t = w.thread;
    t.tx = w.thread_in_block % bx, t.ty = (w.thread_in_block / bx) % by, t.tz = w.thread_in_block / (bx * by);
    t.bx = static_cast<unsigned>(w.block_in_launch % gx), t.by = static_cast<unsigned>(w.block_in_launch / gx % gy);
    t.bz = static_cast<unsigned>(w.block_in_launch / (1ULL * gx * gy));
    t.bdx = bx, t.bdy = by, t.bdz = static_cast<unsigned>(block.z);
    t.gdx = gx, t.gdy = gy, t.gdz = static_cast<unsigned>(grid.z);
    return w;
}

// What the record adds to a picture besides the views' colours.
struct WriterMarks {
    bool repeats = false;     // tint pixels that more than one thread wrote
    bool block_edges = false; // darken pixels whose right or lower neighbour another block wrote
    // The inspected pixel (-1: none): the pixels its writer's block wrote get a yellow edge where
    // a neighbour is not that block's, as the overlay outlines a built-in op's block.
    int outline_x = -1, outline_y = -1;
};

// Pixel (x, y) as the record shows it: unwritten pixels hatched; in `view` (not Pixels) the
// writer's colour, else `shown`; then the marks. `words` holds the canvas' record words.
KC_HD Pixel recorded_pixel(View view, const unsigned* words, int width, int height, int x, int y, Pixel shown,
                           const Dim3& block, const Dim3& grid, const unsigned* block_sm, unsigned long long blocks,
                           WriterMarks marks) {
    const unsigned long long i = 1ULL * y * width + x;
    const unsigned word = words[i];
    if (word == 0u) return uncovered_pixel(x, y);
    const RecordedWriter w = decode_writer(word, block, grid);
    const unsigned sm = w.block_in_launch < blocks ? block_sm[w.block_in_launch] : 0u;
    Pixel p =
        view == View::Pixels ? shown : view_colour(view, w.thread, sm, Mapping::TwoD, static_cast<unsigned>(width));
    if (marks.repeats && w.writers > 1u) p = make_pixel((p.r + 230) / 2, (p.g + 40) / 2, (p.b + 40) / 2);
    auto block_of = [&](unsigned long long j) { return decode_writer(words[j], block, grid).block_in_launch; };
    if (marks.block_edges) {
        auto other_block = [&](unsigned long long j) { return words[j] != 0u && block_of(j) != w.block_in_launch; };
        if ((x + 1 < width && other_block(i + 1)) || (y + 1 < height && other_block(i + width)))
            p = make_pixel(p.r / 3, p.g / 3, p.b / 3);
    }
    if (marks.outline_x >= 0 && marks.outline_x < width && marks.outline_y >= 0 && marks.outline_y < height) {
        const unsigned long long o = 1ULL * marks.outline_y * width + marks.outline_x;
        if (words[o] != 0u && block_of(o) == w.block_in_launch) {
            auto outside = [&](int nx, int ny) {
                if (nx < 0 || ny < 0 || nx >= width || ny >= height) return true;
                const unsigned long long j = 1ULL * ny * width + nx;
                return words[j] == 0u || block_of(j) != w.block_in_launch;
            };
            if (outside(x - 1, y) || outside(x + 1, y) || outside(x, y - 1) || outside(x, y + 1))
                p = make_pixel(255, 230, 0);
        }
    }
    return p;
}

} // namespace kc
