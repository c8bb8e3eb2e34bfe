#pragma once
// Everything the panel edits, in one plain struct. The frame loop turns it into a PaintJob.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/core/canvas_view.h"
#include "app/core/kernel_editor.h"
#include "app/core/settings.h"
#include "app/core/teach_state.h"
#include "app/core/time_clock.h"
#include "app/ui/panels/record_panel.h"
#include "gpu/launch_config.h"
#include "gpu/paint_job.h"
#include "render/backend.h"
#include "render/io/source_images.h"

namespace kc {

// A drag or wheel on the canvas in progress, between frames.
struct CanvasGesture {
    int drag_button = -1;   // the mouse button that started a pan on the canvas; -1: none
    bool param_pan = false; // that drag pans the fractal's centre, not the view
    float wheel = 0.0f;     // wheel notches not yet turned into a zoom step (touchpads send fractions)
};

// The panel's "Find the fastest block" and "Cancel", done between frames. Applying a result is
// an edit of the launch, made by the panel itself.
struct TuneRequests {
    bool start = false;
    bool cancel = false;
};

// The panel's "Preset and command line" section (preset_panel.h).
struct PresetPanelState {
    std::array<char, 1024> path{}; // the file field of Save preset / Load preset
    std::string message;           // what the last save or load did, or why it failed
    bool failed = false;
    std::string command; // the last "Copy command line", shown under the button
};

struct UiState {
    PaintJob job; // op, params (incl. the canvas size), launch, view
    // The job's launch as this frame paints it, resolved and checked once by the frame loop: the
    // panel, the overlay and the painter read it instead of working it out again.
    ResolvedLaunch resolved = resolve_launch(job, universal_limits());
    int edit_width = 800; // the size fields; applied between frames when apply_size
    int edit_height = 800;
    bool apply_size = false;
    Backend requested_backend = Backend::Cpu;
    Present requested_present = Present::Direct;
    bool vsync = true;
    bool quit = false;                  // leave the frame loop now
    bool quit_request = false;          // the window's close button or Ctrl+Q: quit, asking first about unsaved edits
    bool unsaved_dialog = false;        // the "Unsaved kernel" dialog is open
    bool quit_after_save = false;       // its Save was pressed: quit once the kernel is saved
    std::optional<std::string> refusal; // why the last paint was refused; the old picture stays
    std::string error;                  // a CUDA/GL error from the last frame
    std::string message;                // one-line feedback (e.g. "saved foo.png")
    TeachState teach;                   // inspector, overlays, step mode (teach_panel.h)
    TimeClock clock;                    // the animation's t (user kernels, step mode): the Time section
    RecordPanelState record;            // the Record section (record_panel.h)
    TuneRequests tune;                  // the block tuner's buttons (the sweep runs in the frame loop)
    bool tune_ended = false;            // a sweep just ended: the panel scrolls its results into view once

    SourceImages sources;                                   // input images A and B, fitted to the canvas
    std::array<std::array<char, 1024>, 2> image_path{};     // the panel's path fields
    std::array<std::optional<std::string>, 2> load_request; // load this file into A / B between frames
    std::array<bool, 2> clear_request{};
    bool fit_canvas_to_image = false;       // resize the canvas to image A's size
    bool save_request = false;              // save the canvas as <op>-<time>.png (panel, F12)
    bool both_variants = true;              // two-variant ops: run both kernels, times side by side
    std::array<std::string, 2> image_error; // per slot: why its last load failed; the old image stays
    KernelEditorState kernel;               // the user's kernel
    PresetPanelState preset;                // Save / Load preset, Copy command line
    UiSettings settings;                    // UI scale, the panel's side and width (settings.h)
    float ui_scale = 1.0f;                  // applied: the monitor's content scale x the setting
    int ui_scale_edit = 100;                // the panel's slider; applied when released
    float status_bar_height = 0;            // last frame's, in points
    CanvasView view;                        // zoom and pan of the canvas in the window
    std::optional<double> zoom_request;     // a preset's zoom (screen points per canvas pixel; 0: fit), applied
                                            // once the view knows its area
    CanvasGesture gesture;                  // a drag or wheel on the canvas in progress
    std::optional<std::pair<int, int>> window_size_request; // scripts: resize the window (points)
    // A kernel faulted and CUDA cannot go on: the panel shows this until the user quits (exit 1).
    std::string fatal;
};

} // namespace kc
