#pragma once
// The roofline of a memory-bound op: how long a device-to-device copy of the bytes it must read
// and write takes. Its percentage says how near the memory system's limit a kernel runs; the
// bench prints it as %copy and the panel can show it next to a variant's kernel time.
#include "gpu/registry.h"

namespace kc {

// The bytes `op` must move for a w x h canvas: each input pixel read once, each output written once.
inline double roofline_bytes(const OpInfo& op, int w, int h) {
    return double(op.bytes_read_per_pixel + op.bytes_written_per_pixel) * w * h;
}

// 100 when the kernel moves its bytes as fast as a copy (copy_gbs: bytes read + written per ns,
// i.e. GB/s); above 100 is possible (the copy is not the fastest kernel); 0 without a copy figure.
inline double percent_of_roofline(const OpInfo& op, int w, int h, double kernel_us, double copy_gbs) {
    if (kernel_us <= 0 || copy_gbs <= 0) return 0.0;
    return 100.0 * roofline_bytes(op, w, h) / (kernel_us * 1e3) / copy_gbs;
}

} // namespace kc
