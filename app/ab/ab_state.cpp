#include "app/ab/ab_state.h"

namespace kc {

PaintJob side_b_job(const AbSplit& split, const PaintJob& a) {
    PaintJob b = split.b;
    b.params.width = a.params.width, b.params.height = a.params.height;
    b.params.seconds = a.params.seconds; // one clock: an animated kernel shows the same moment on both sides
    b.max_blocks = -1;                   // step mode and the writer marks are side A's
    b.marks = {};
    return b;
}

} // namespace kc
