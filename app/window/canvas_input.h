#pragma once
// The mouse and keys over the canvas: the wheel zooms the view about the cursor and a drag pans
// it (left drag where the op has no use for the left button, middle or right drag always); + and -
// zoom about the canvas' middle. Mandelbrot and Julia keep the plain wheel and left drag for
// their own centre and zoom; Ctrl+wheel zooms their view.
#include "app/ui/ui_state.h"

namespace kc {

// Call inside the ImGui frame, after the panel (whose windows take the mouse first) and after
// state.view has this frame's viewport.
void handle_canvas_input(UiState& state);

} // namespace kc
