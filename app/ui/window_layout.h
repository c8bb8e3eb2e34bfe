#pragma once
// How the window is shared: the panel is a side area (left or right) the height of the window
// above the status bar, resizable by dragging its inner edge ("Panel edge" to scripts); the status bar runs along the
// bottom, always visible; the canvas takes the rest. Collapsing the panel widens the canvas.
#include <optional>

#include "app/core/canvas_view.h"
#include "app/core/messages.h"
#include "app/ui/ui_state.h"

namespace kc {

// Sets the next window (the panel) to its place and the width the user gave it. False when the
// panel is hidden.
bool place_panel(const UiState& state);
// After the panel: the handle on its inner edge that drags its width.
void draw_panel_edge(UiState& state);

// The status bar: zoom controls (Fit, 1:1, -, +), show/hide the panel, and the latest error,
// refusal, image error and message (a saved file's full path).
void draw_status_bar(UiState& state, const Messages& messages);

// While a slow cpu frame paints, a small note in the canvas' bottom-left corner: how long it has
// painted and what the last frame took (the canvas shows that one meanwhile). Drawn over the
// canvas, not in the status bar, whose height (and buttons) would jump as it came and went.
void draw_painting_note(const UiState& state, double painting_s, double last_frame_s);

// Where the kernel editor's window goes this frame: between the panel and the canvas, about 40 %
// of the window's width, when the op is the user's kernel, the panel is shown, "Editor beside the
// canvas" is on and the canvas keeps its minimum width. nullopt: it is not beside (the editor is
// then in the panel).
std::optional<RectD> editor_area(const UiState& state);

// Where the canvas goes this frame, in ImGui's coordinates (points): beside the panel and the editor.
RectD canvas_area(const UiState& state);

} // namespace kc
