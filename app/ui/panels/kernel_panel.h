#pragma once
// The panel's part for the user's own kernel (op user_kernel): the code editor, starters, file
// load/save, Compile (and Ctrl+Enter), the compile log, the read-only prelude; the dialog that
// asks about unsaved edits at quit, and the one that explains a kernel fault before kcanvas closes.
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"

namespace kc {

// The "Your kernel" section's contents; call inside the panel window when the op is user code.
void kernel_section(UiState& state, const PanelContext& ctx);

// The editor as a window of its own between the panel and the canvas (window_layout.h's
// editor_area), when there is one: the starters and earlier versions, the code, Compile, the log.
void kernel_editor_window(UiState& state, const PanelContext& ctx);

// While a replacement waits (state.kernel.pending: a starter, Load .cu, an earlier version, a
// preset over text that is in no file): "Replace the kernel?" with Save (to the file the text came
// from, else the data dir's kernel.cu; then replace), Discard (replace; the text stays an earlier
// version and Undo replace brings it back) and Cancel (Esc too).
void replace_kernel_dialog(UiState& state, const PanelContext& ctx);

// While state.unsaved_dialog is set: "Unsaved kernel" with Save (to the file field's path, else
// the data dir's kernel.cu, never into kcanvas's installed data folder; then quit), Discard (quit) and Cancel (stay;
// Esc too).
void unsaved_kernel_dialog(UiState& state, const PanelContext& ctx);

// While a Topic::Fault message stands: a modal dialog with the fault, where the source went, and Quit.
void kernel_fault_dialog(UiState& state, const PanelContext& ctx);

} // namespace kc
