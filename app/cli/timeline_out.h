#pragma once
// `kcanvas --headless --timeline-out FILE`: the last frame's SM timeline as Chrome-trace JSON
// (gpu/block_timeline.h), for slides (chrome://tracing, Perfetto) and tests.
#include <optional>
#include <string>

#include "app/cli/options.h"
#include "gpu/block_timeline.h"
#include "gpu/paint_job.h"

namespace kc {

// Why --timeline-out cannot be written as given (no --headless, a bad or read-only path).
std::optional<std::string> timeline_out_refusal(const Options& o);
// Why this job records no timeline (a custom op's own kernels, the user's kernel, a grid over
// kMaxTimelineBlocks); nullopt when it does or no --timeline-out was asked for.
std::optional<std::string> timeline_job_refusal(const Options& o, const PaintJob& job, const Dim3& grid);
// Writes `t`, recorded on `device`, to --timeline-out (atomically); false, having said why, when
// it cannot.
bool write_timeline_out(const Options& o, const std::optional<BlockTimeline>& t, const std::string& device);

} // namespace kc
