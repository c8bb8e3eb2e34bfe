#pragma once
// The "SM timeline" section: a chart of SM rows x time with one bar per block of the last recorded
// launch (gpu/block_timeline.h), the waves and the tail marked, the clock's resolution beside it.
// Hovering a bar outlines its block on the canvas; hovering the canvas marks its block's bar.
#include <optional>

#include "app/core/canvas_view.h"
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"
#include "gpu/paint_job.h"

namespace kc {

void timeline_section(UiState& state, const PanelContext& ctx);

// The block (launch order) that writes `pixel`, for the chart's mark; none when no thread writes
// it, the launch is refused, or it is a custom op's or the user's own.
std::optional<long long> block_of_pixel(const PaintJob& job, const ResolvedLaunch& resolved, int width, int height,
                                        std::optional<CanvasPixel> pixel);

} // namespace kc
