#pragma once
// The roofline of a memory-bound op: how long a device-to-device copy of the bytes it must read
// and write takes. Its percentage says how near the memory system's limit a kernel runs; the
// bench prints it as %copy and the panel shows it next to each variant's kernel time. The copy's
// bandwidth is measured in one place (copy_bandwidth.h).
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "gpu/registry.h"

namespace kc {

// A copy's bandwidth, bytes read plus written per nanosecond (GB/s), from the `bytes` it copied in
// `copy_us`; 0 without a time.
inline double copy_gbs(double bytes, double copy_us) { return copy_us > 0 ? 2.0 * bytes / (copy_us * 1e3) : 0.0; }

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

// How long a copy of the op's bytes takes at copy_gbs, in microseconds; 0 without a figure.
inline double roofline_copy_us(const OpInfo& op, int w, int h, double copy_gbs) {
    return copy_gbs > 0 ? roofline_bytes(op, w, h) / copy_gbs / 1e3 : 0.0;
}

// The panel's line for one kernel time, e.g. "tiled 164 us: 52 % of roofline (copy of the same
// bytes: 85 us)"; "" where no roofline applies: no copy figure (the cpu backend), no kernel time
// yet, or a custom op that counts no bytes it reads (matmul: GFLOP/s instead).
inline std::string roofline_text(std::string_view name, const OpInfo& op, int w, int h, double kernel_us,
                                 double copy_gbs) {
    const double copy_us = roofline_copy_us(op, w, h, copy_gbs);
    if (kernel_us <= 0 || copy_us <= 0 || (op.custom && op.bytes_read_per_pixel == 0)) return {};
    return fmt::format("{} {:.0f} us: {:.0f} % of roofline (copy of the same bytes: {:.0f} us)", name, kernel_us,
                       percent_of_roofline(op, w, h, kernel_us, copy_gbs), copy_us);
}

// The images `op` reads that are not loaded (InputUse bits): it computes those (the gradient, the
// checkerboard) instead of reading them, so a roofline that counts their bytes as read does not
// describe the kernel.
inline unsigned generated_inputs(const OpInfo& op, bool a_loaded, bool b_loaded) {
    return op.inputs & ((a_loaded ? 0u : unsigned(kUsesImageA)) | (b_loaded ? 0u : unsigned(kUsesImageB)));
}

// What the panel says instead of the roofline when `generated` (generated_inputs) is not 0.
inline std::string generated_inputs_note(unsigned generated) {
    if (!generated) return {};
    const bool a = generated & kUsesImageA, b = generated & kUsesImageB;
    return fmt::format("No roofline: without {} the op computes {} instead of reading {}; load {} to compare the "
                       "kernel with a copy of the bytes it reads and writes.",
                       a && b ? "images A and B"
                       : a    ? "image A"
                              : "image B",
                       a && b ? "the gradient and the checkerboard"
                       : a    ? "the gradient"
                              : "the checkerboard",
                       a && b ? "them" : "it", a && b ? "both" : "one");
}

} // namespace kc
