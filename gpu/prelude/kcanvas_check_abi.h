#pragma once
// What the checked views of the user's kernel share with kcanvas: compiled into the host code
// (gpu/kernel_check.h) and, as text, into every checked kernel's prelude (NVRTC, or the CPU
// compiler), so both sides read one layout. Plain C++: no includes, no namespaces.

// KcViolation's x and y when the access used an index, not out(x, y).
#define KC_NO_XY (-2147483647 - 1)

// The out-of-range accesses of one launch: how many, and the first in full: the first access of the
// thread earliest in launch order that made one, so a frame names the same one every time, on
// every backend. kcanvas zeroes it before the launch.
struct KcViolation {
    unsigned count;    // out-of-range accesses (modulo 2^32)
    unsigned claimed;  // 1 once a thread has filled the fields below
    int write;         // 1: a write (out[i] = p, store), 0: a read (load, a[i])
    int image;         // 0: out, 1: a, 2: b
    long long index;   // the index used: out[i]'s i, or y * width + x for out(x, y)
    int x, y;          // out(x, y)'s arguments; both KC_NO_XY when an index was used
    unsigned block[3]; // blockIdx of the thread
    unsigned thread[3];
    unsigned block_dim[3];
    unsigned grid_dim[3];
    int width, height; // the canvas' size
    // Grading compiles only (KC_COUNT_ACCESSES; `kcanvas exercise check`): the most global reads
    // (a, b and out read through the views) and writes (out) one thread made, as count << 32 |
    // the thread's number in the launch (block in launch order * threads per block + thread in
    // block), kept by an atomic max. 0: nothing counted (a normal compile).
    unsigned long long most_reads, most_writes;
    // Which thread is named: ~(its number in the launch), so the earliest's is the largest; and
    // 1 in `lock` while a thread fills the fields.
    unsigned long long first_rank;
    unsigned lock;
};

// Who wrote each pixel, kept when the views or the inspector need it.
//   writers[i]: 0 while no thread has written pixel i; else the low 28 bits hold the last writing
//               thread's number in the launch plus one (block in launch order * threads per block
//               + thread in block + 1), the top 4 bits how many writes by different threads in turn
//               it took (1..15): a thread writing again a pixel it wrote last counts once, so one
//               writer is 1 and two threads storing once each are 2; 15 means 15 or more.
//   block_sm[b]: the SM (the CPU emulator: its worker) that ran block b, for b < blocks.
struct KcRecord {
    unsigned* writers;
    unsigned* block_sm;
    unsigned long long blocks;
};

// The launch's settings for the checked entry kernel (by value).
struct KcCheck {
    KcViolation* violation; // never null
    KcRecord record;        // record.writers null: nothing recorded
    long long max_blocks;   // step mode: blocks from this number in launch order return at once; < 0: all run
    int identity;           // 1: a view shows the record: writes to out go nowhere, kcanvas paints every
                            // pixel from the record afterwards
};
