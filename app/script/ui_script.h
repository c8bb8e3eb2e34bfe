#pragma once
// A scripted input mode for the windowed app (--script FILE): each line sets what the panel
// sets, waits frames, or saves pictures, so tests and demos can drive the real window.
//   op NAME | block XxY | grid XxY|auto | mapping M | view V | size WxH | window WxH
//   PARAM VALUE: every parameter of the table (gpu/param_limits.h), e.g. weight 0.5 | cell 20 | level N |
//     radius N | variant naive|tiled | iter N | double on|off | zoom Z | center-x X | julia-re R | matmul-n N
//   backend B | present pbo|texture|surface|direct | vsync on|off | wait N | save FILE (the canvas)
//   screenshot FILE (the window) | image PATH | image2 PATH (load input A / B) | quit
//   status (prints "refused: ..." or "ok", each image's error, the panel's message, "launch: block B
//     grid G mapping M (the op's own|the panel's)", the launch that runs, and the tuner's "tuner: ..." lines)
//   tune (as "Find the fastest block") | inspect X,Y|off (pin the inspector) | outlines on|off
//   step N|off (step mode, paused) | panel [-]indexing|device
//   editor window|panel (the kernel editor beside the canvas, or in the panel) | kernel FILE.cu (load into the
//   editor, compile) | starter NAME | source TEXT (append a line; "-" empties) | compile (the editor's text)
//   idle S (S seconds in which the script does nothing and the window waits for input as without one)
//   pause | play | frame N (N frames on, negative back; paused) | time T (seconds) | speed X | loop FROM TO|off
//   (the animation clock of the Time section) | record FILE (the Record section's settings) | record cancel
// Input verbs act as a person does, through real mouse and key events (script_input.h); TARGET
// is a control's visible label (whole, or a unique prefix; "LABEL [N]" for the Nth) or X,Y in
// window coordinates. A control scrolled out of its panel is wheeled into view first.
//   click TARGET | rclick TARGET | mclick TARGET | hover TARGET | drag TARGET DX DY [left|right|middle]
//   quick-click TARGET (press and release inside one frame, the pointer moving on in that frame too)
//   wheel N [TARGET] | key NAME (enter, escape, f12, ctrl+q, shift+tab, a, plus, ...) | type TEXT
//   print LABEL (prints "widget LABEL: VALUE", what the control shows) | widgets (lists the visible ones)
//   where LABEL (prints "where LABEL: X0,Y0 X1,Y1", the control's rectangle in window pixels)
//   expect TEXT (fails unless the panel shows TEXT within 60 frames) | expect-not TEXT
//   await S TEXT (fails unless the panel shows TEXT within S seconds: work of seconds, as a check)
//   text (prints all text drawn with the ui:: text functions) | clock (prints "clock: T ms", a steady
//     clock: the time between two is how long the window took to answer what came between them)
#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "app/core/messages.h"
#include "app/core/requests.h"
#include <string_view>

#include "app/script/script_input.h"
#include "app/ui/ui_state.h"

namespace kc {

// A script that cannot be read or run as written (exit code 2: bad input).
class ScriptError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class UiScript {
public:
    // Throws ScriptError naming the file and line on a malformed command.
    explicit UiScript(const std::string& path);
    // Parses TEXT as a script; NAME stands for the file in messages (the file constructor uses it,
    // and so does the fuzzer, tests/fuzz/fuzz_ui_script.cpp, without touching the disk).
    static UiScript from_text(const std::string& name, const std::string& text);
    struct Hooks {
        std::function<std::optional<std::string>(const std::string&)> save_canvas;
        std::function<std::optional<std::string>(const std::string&)> save_window;
        std::function<std::string()> tuner_status; // the block tuner's lines for status (tune_panel.h)
    };
    // Runs commands until one waits for frames. Call once per frame, before painting for state
    // changes; pictures are saved from the previous frame's canvas and window. What needs more than
    // a state edit is pushed to `requests`, as the panel and the keys do; `status` reads `messages`.
    void step(UiState& state, Requests& requests, const Messages& messages, const Hooks& hooks);
    bool done() const { return commands_.empty() && wait_frames_ == 0 && !input_.busy() && !idle_until_; }
    // Within an `idle` command: the window runs as without a script, waiting for input when nothing moves.
    bool idle() const { return idle_until_ && std::chrono::steady_clock::now() < *idle_until_; }
    // Delivers this frame's scripted input; call between the platform backend's NewFrame and ImGui's.
    void feed_input(GLFWwindow* window) { input_.feed(window); }
    // Without a window (the fuzzer): forgets the frames to wait and the input not yet delivered,
    // so the next step runs the next command.
    void skip_pending() {
        wait_frames_ = 0;
        idle_until_.reset();
        input_.clear();
    }

private:
    UiScript() = default;
    struct Command {
        int line;
        std::string verb, arg;
    };
    void run_state_verb(const Command& c, UiState& s, const Hooks& hooks);
    // The state verbs by group; each returns false for a verb not its own.
    bool run_param_verb(const Command& c, UiState& s) const;
    bool run_launch_verb(const Command& c, UiState& s) const;
    bool run_window_verb(const Command& c) const;
    bool run_teach_verb(const Command& c, UiState& s);
    bool run_kernel_verb(const Command& c, UiState& s) const;
    bool run_clock_verb(const Command& c, UiState& s) const;
    static void print_status(const UiState& s, const Messages& messages, const Hooks& hooks);
    bool run_input_verb(const Command& c); // false: not yet (retried next frame)
    bool check_text(const Command& c);
    bool await_text(const Command& c);
    bool print_widget(const Command& c);
    bool wheel_verb(const Command& c);
    bool drag_verb(const Command& c);
    bool pointer_verb(const Command& c);
    std::optional<ImVec2> target_point(const Command& c, const std::string& target);
    [[noreturn]] void fail(const Command& c, const std::string& what) const;
    double number(const Command& c, double lo, double hi, bool whole = false) const;
    ScriptError bad(const Command& c, const std::string& what) const; // "FILE:LINE: what 'ARG'"

    Requests* requests_ = nullptr;       // step()'s, while it runs
    const Messages* messages_ = nullptr; // likewise
    std::deque<Command> commands_;
    std::string path_;
    int wait_frames_ = 0;
    std::optional<std::chrono::steady_clock::time_point> idle_until_; // the end of an `idle S`
    ScriptedInput input_;
    int retries_ = 0;                    // frames the front input verb has waited for its control
    std::optional<float> scrolled_from_; // where that control was before the script last wheeled its panel
    std::optional<std::chrono::steady_clock::time_point> await_until_; // when the front `await` gives up
    std::optional<ImVec2> aimed_at_; // where the pointer went to click it, and how often
    int aims_ = 0;
};

} // namespace kc
