#pragma once
// The window's Time and Record sections, and the recording the frame loop advances a few frames
// at a time while the window keeps running (progress in the status bar; Cancel keeps nothing).
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "app/core/requests.h"
#include "render/frame_painter.h"

namespace kc {

struct UiState;
class Messages;

// The Record section's fields and buttons; the frame loop acts on start / cancel.
struct RecordPanelState {
    bool by_seconds = false; // the length in seconds, else in frames
    int frames = 150;
    float seconds = 5.0f;
    int fps = 30;
    std::array<int, 2> size{0, 0}; // 0 x 0: the canvas' size
    std::array<char, 1024> path{}; // empty: kcanvas-<op>-<time>.<format's extension>
    int format = 0;                // GIF, MP4, WebM, PNG sequence: the extension an empty path gets
    bool window_pace = false;      // step mode goes on at the window's pace, else every block by 90 %
    bool running = false;          // set by the frame loop
    float progress = 0;            // 0..1
    std::string running_path;      // the running recording's file
    bool quit_dialog = false;      // Ctrl+Q or the close button while recording: "Recording in progress"
    bool quit_when_done = false;   // its "Finish recording, then quit"
};

void time_section(UiState& s);
void record_section(UiState& s, Requests& requests);

// While state.record.quit_dialog is set: "Recording in progress", asking before a quit drops the
// recording: Finish recording, then quit; Stop recording and quit (nothing is written); Cancel (Esc too).
void recording_quit_dialog(UiState& s, Requests& requests);

// The animation clock's step for this frame: wall time since `last` times the speed, unless paused.
double tick_clock(UiState& s, std::chrono::steady_clock::time_point& last);

// Starts, advances (about `budget` of work per call) or cancels the window's recording.
class WindowRecording;
struct WindowRecorder {
    std::unique_ptr<WindowRecording> recording;
    WindowRecorder();
    ~WindowRecorder();
    void start(UiState& s, Messages& messages, const FramePainter& painter); // with the Record section's settings
    void cancel();                                                           // keeps nothing
    bool running() const;                                                    // frames still to record
    void advance(UiState& s, Messages& messages, std::chrono::milliseconds budget = std::chrono::milliseconds(30));
};

} // namespace kc
