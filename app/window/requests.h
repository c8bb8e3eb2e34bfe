#pragma once
// Carries out what the panel, the keys and scripts asked for (app/core/requests.h), between
// frames, in the order asked: the one place that resizes the canvas, loads images and kernels,
// switches backends, saves, starts the tuner and quits.
#include <optional>

#include "app/core/autosave.h"
#include "app/core/block_sweep.h"
#include "app/core/messages.h"
#include "app/core/requests.h"
#include "app/ui/panels/record_panel.h"
#include "app/ui/ui_state.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"

namespace kc {

// What requests act on: the window's state and messages, and the objects of the frame loop.
struct RequestTargets {
    UiState& state;
    Messages& messages;
    Canvas& canvas;
    FramePainter& painter;
    GlfwWindow& window;
    std::optional<BlockSweep>& sweep; // the block tuner's running or last sweep
    WindowRecorder& recorder;         // the Record section's recording
};

// Takes every pending request and carries it out. A request that cannot be yet stays for the next
// frame: a zoom before the canvas has its place on the screen.
void carry_out_requests(Requests& requests, RequestTargets& targets);

// The user's kernel: compiles the editor's text when a compile is wanted (Compile, Ctrl+Enter, a
// loaded file or starter, or the op shown for the first time) and a CUDA backend runs. A failed
// compile leaves the running kernel alone. Returns whether a new kernel now runs.
bool compile_wanted_kernel(UiState& s, FramePainter& painter);

// The editor's text at start: --kernel's file (or a preset's source), else the last session's
// autosave (`autosave`, as `found` there), else the default starter. `fallback_path` is where
// Save goes with an empty file field. Returns whether it restored the autosave.
bool start_kernel_editor(KernelEditorState& k, Messages& messages, const std::string& kernel_path,
                         const std::string& kernel_source, const std::string& autosave, const AutosaveOpening& found);

} // namespace kc
