#include "gpu/direct_write.h"

namespace kc {

std::optional<std::string_view> direct_write_refusal(const OpInfo& op, const PaintJob& job,
                                                     const ResolvedLaunch& resolved, bool writer_record) {
    if (op.user_code) return "your kernel writes a buffer of pixels";
    if (op.custom) return "this op runs its own kernels into a buffer";
    if (job.view != View::Pixels) return "the view shows threads, painted by the teaching kernel";
    if (job.max_blocks >= 0) return "step mode paints part of the grid";
    if (writer_record) return "the inspector records which thread wrote each pixel";
    if (resolved.clear_first) return "the grid leaves pixels unwritten: they are hatched first";
    return std::nullopt;
}

} // namespace kc
