#include "app/cli/timeline_out.h"

#include <fmt/format.h>

#include "gpu/registry.h"
#include "render/io/atomic_file.h"

namespace kc {

std::optional<std::string> timeline_out_refusal(const Options& o) {
    if (o.timeline_out.empty()) return std::nullopt;
    if (!o.headless)
        return "--timeline-out needs --headless (the window shows the timeline in its SM timeline section)";
    if (auto e = output_path_error(o.timeline_out)) return "--timeline-out: " + *e;
    if (auto e = read_only_refusal(o.timeline_out, o.force)) return "--timeline-out " + *e;
    return std::nullopt;
}

std::optional<std::string> timeline_job_refusal(const Options& o, const PaintJob& job, const Dim3& grid) {
    if (o.timeline_out.empty()) return std::nullopt;
    const OpInfo& op = op_registry()[job.op];
    if (op.custom || op.user_code)
        return fmt::format("--timeline-out: op {} records no SM timeline: only the per-pixel ops do ({})", op.name,
                           op.custom ? "its own kernels record none" : "your kernel records none");
    if (grid.count() > kMaxTimelineBlocks)
        return fmt::format("--timeline-out: grid {} has {} blocks; the timeline records at most {}", to_string(grid),
                           grid.count(), kMaxTimelineBlocks);
    return std::nullopt;
}

bool write_timeline_out(const Options& o, const std::optional<BlockTimeline>& t, const std::string& device) {
    if (o.timeline_out.empty()) return true;
    if (!t || t->empty()) {
        fmt::print(stderr, "kcanvas: --timeline-out: no timeline was recorded\n");
        return false;
    }
    if (auto e = write_file_atomically(o.timeline_out, timeline_chrome_trace(*t, device))) {
        fmt::print(stderr, "kcanvas: --timeline-out: {}\n", *e);
        return false;
    }
    return true;
}

} // namespace kc
