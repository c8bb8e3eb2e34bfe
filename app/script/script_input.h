#pragma once
// The UI script's hands: mouse moves, button presses, wheel turns, key presses and typed text,
// delivered one frame at a time through the same doors a person's input uses (the GLFW callbacks
// installed on the window for the pointer and its buttons; ImGui's backend callbacks for keys,
// characters and the wheel). Also finds a control by its visible label in the widgets the last
// frame drew (widgets.h).
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/ui/widgets.h"

struct GLFWwindow;

namespace kc {

// One key as `key NAME` spells it: "enter", "f12", "ctrl+q", "shift+tab", "a", "plus".
struct KeyChord {
    int key = 0;       // GLFW_KEY_*
    int mods = 0;      // GLFW_MOD_* bits
    unsigned text = 0; // the character a press types (0: none, e.g. with Ctrl held)
};
std::optional<KeyChord> parse_key_chord(const std::string& name);

class ScriptedInput {
public:
    enum class Button { Left = 0, Right = 1, Middle = 2 };

    void move_to(ImVec2 p);
    void click(ImVec2 p, Button b = Button::Left);
    // Press and release inside one frame, the pointer moving on to `then` in that frame too: a
    // quick hand on a slow frame (the CPU backend's), which ImGui must still see as a click at p.
    void quick_click(ImVec2 p, ImVec2 then, Button b = Button::Left);
    void drag(ImVec2 from, ImVec2 by, Button b = Button::Left);
    void wheel(float steps);
    void key(const KeyChord& k);
    void type(const std::string& utf8);
    void idle_frames(int n); // frames with nothing new, so what the input did gets drawn

    bool busy() const { return !frames_.empty(); }
    void clear() { frames_.clear(); } // drops the frames not yet delivered
    // Delivers one frame's input. Call after the platform backend's NewFrame, before ImGui::NewFrame.
    void feed(GLFWwindow* window);

private:
    struct PointerEvent {
        std::optional<ImVec2> move;                    // the pointer moved here, or
        std::optional<std::pair<Button, bool>> button; // a button was pressed (true) or released
    };
    struct Frame {
        std::vector<PointerEvent> pointer; // in the order a hand made them
        float wheel = 0.0f;
        std::vector<std::pair<KeyChord, bool>> keys; // pressed or released
        std::vector<unsigned> chars;
    };
    Frame& next_frame() { return frames_.emplace_back(); }

    std::deque<Frame> frames_;
};

// The control a script names: its whole visible label, else a unique prefix of one; "LABEL [N]"
// picks the Nth of several with the same label. While a popup or combo list is open, its items
// come first (they are drawn on top). Returns the record, or an error naming the candidates.
struct FoundWidget {
    const WidgetRecord* widget = nullptr;
    std::string error;
};
FoundWidget find_widget(const std::vector<WidgetRecord>& drawn, const std::string& label);

} // namespace kc
