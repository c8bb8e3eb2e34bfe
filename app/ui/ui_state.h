#pragma once
// Everything the panel edits, in one plain struct. The frame loop turns it into a PaintJob.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/ab/ab_state.h"
#include "app/core/canvas_view.h"
#include "app/core/kernel_editor.h"
#include "app/core/settings.h"
#include "app/core/teach_state.h"
#include "app/core/time_clock.h"
#include "app/core/timeline_state.h"
#include "app/ui/panels/exercise_panel.h"
#include "app/ui/panels/image_panel.h"
#include "app/ui/panels/lesson_panel.h"
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

// The panel's "Preset and command line" section (preset_panel.h).
struct PresetPanelState {
    std::array<char, 1024> path{}; // the file field of Save preset / Load preset
    std::string command;           // the last "Copy command line", shown under the button
};

// The window's state: what the panel shows and edits. What it asks for that needs more than an
// edit goes through Requests (app/core/requests.h); what kcanvas says, through Messages
// (app/core/messages.h). The frame loop turns the state into a PaintJob.
struct UiState {
    PaintJob job; // op, params (incl. the canvas size), launch, view
    // The job's launch as this frame paints it, resolved and checked once by the frame loop: the
    // panel, the overlay and the painter read it instead of working it out again.
    ResolvedLaunch resolved = resolve_launch(job, universal_limits());
    int edit_width = 800; // the size fields (request::ResizeCanvas applies them)
    int edit_height = 800;
    Backend backend = Backend::Cpu;    // as in effect (request::SetBackend changes it)
    Present present = Present::Direct; // as in effect (request::SetPresent)
    bool vsync = true;                 // as in effect (request::SetVsync)
    bool quit = false;                 // leave the frame loop now
    bool unsaved_dialog = false;       // the "Unsaved kernel" dialog is open
    TeachState teach;                  // inspector, overlays, step mode (teach_panel.h)
    TimeClock clock;                   // the animation's t (user kernels, step mode): the Time section
    TimelineState timeline;            // the SM timeline section (timeline_panel.h)
    RecordPanelState record;           // the Record section (record_panel.h)
    LessonPanelState lesson;           // the open lesson, its step and answer (lesson_panel.h)
    ExercisePanelState exercise;       // the passes, the open exercise, its check (exercise_panel.h)
    bool tune_ended = false;           // a sweep just ended: the panel scrolls its results into view once

    SourceImages sources;                               // input images A and B, fitted to the canvas
    std::array<std::array<char, 1024>, 2> image_path{}; // the panel's path fields
    ImageChooserState image_chooser;                    // Browse: the desktop's chooser or the window's browser
    bool both_variants = true;                          // two-variant ops: run both kernels, times side by side
    KernelEditorState kernel;                           // the user's kernel
    PresetPanelState preset;                            // Save / Load preset, Copy command line
    UiSettings settings;                                // UI scale, the panel's side and width (settings.h)
    float ui_scale = 1.0f;                              // applied: the monitor's content scale x the setting
    int ui_scale_edit = 100;                            // the panel's slider; applied when released
    float status_bar_height = 0;                        // last frame's, in points
    CanvasView view;                                    // zoom and pan of the canvas in the window
    CanvasGesture gesture;                              // a drag or wheel on the canvas in progress
    AbState ab;                                         // the A/B split: side B, the layout, the two times
};

} // namespace kc
