#pragma once
// A scripted input mode for the windowed app (--script FILE): each line sets what the panel
// sets, waits frames, or saves pictures, so tests and demos can drive the real window.
//   op NAME | block XxY | grid XxY|auto | mapping M | view V | weight W | cell N | size WxH
//   backend B | present pbo|texture|surface | vsync on|off | wait N | save FILE (the canvas) | screenshot FILE (the window)
//   image PATH | image2 PATH (load input A / B) | level N | radius N | variant naive|tiled | iter N
//   status (prints "refused: ..." or "ok", any image error, the panel's message and the block tuner's
//   progress, CPU warning and figures) | tune (as "Find the fastest block") | quit
//   inspect X,Y|off (pin the inspector) | outlines on|off | step N|off (step mode, paused) | panel [-]indexing|device
//   kernel FILE.cu (load into the kernel editor, compile) | starter NAME | source TEXT (append a line; "-" empties)
//   compile (the editor's text)
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "ui_state.h"

namespace kc {

class UiScript {
public:
    // Throws std::runtime_error naming the file and line on a malformed command.
    explicit UiScript(const std::string& path);
    struct Hooks {
        std::function<std::optional<std::string>(const std::string&)> save_canvas;
        std::function<std::optional<std::string>(const std::string&)> save_window;
        std::function<std::string()> tuner_status; // the block tuner's lines for status (tune_panel.h)
    };
    // Runs commands until one waits for frames. Call once per frame, before painting for state
    // changes; pictures are saved from the previous frame's canvas and window.
    void step(UiState& state, const Hooks& hooks);
    bool done() const { return commands_.empty() && wait_frames_ == 0; }

private:
    struct Command {
        int line;
        std::string verb, arg;
    };
    std::deque<Command> commands_;
    std::string path_;
    int wait_frames_ = 0;
};

} // namespace kc
