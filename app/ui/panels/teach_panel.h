#pragma once
// The teaching tools of the issue "see which thread painted which pixel": panel sections (mapping
// formula, view legend, coverage, step mode, device figures) and the canvas overlay (inspector,
// block outlines, repeated-write flags). Kept out of panel.cpp; each is called from one line.
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"
#include "render/canvas.h"

namespace kc {

// The "Indexing" and "Device" sections with their headers; call inside the panel window.
void teaching_sections(UiState& state, const PanelContext& ctx);
void indexing_section(UiState& state, const PanelContext& ctx);
void device_section(const UiState& state, const PanelContext& ctx);
// The view's legend (swatches; with `prose`, what the colours mean), as the Indexing section shows it.
void view_legend(const PaintJob& job, const Dim3& grid, bool prose);

} // namespace kc
