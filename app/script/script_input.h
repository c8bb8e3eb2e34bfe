#pragma once
// The UI script's hands: mouse moves, button presses, wheel turns, key presses and typed text,
// delivered one frame at a time through the same doors a person's input uses (GLFW's backend
// callbacks for keys, characters and the wheel; ImGuiIO's mouse position and buttons, which the
// backend would otherwise read from the real pointer). Also finds a control by its visible label
// in the widgets the last frame drew (widgets.h).
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
    struct Frame {
        std::optional<ImVec2> mouse;
        std::optional<std::pair<Button, bool>> button; // pressed (true) or released
        float wheel = 0.0f;
        std::vector<std::pair<KeyChord, bool>> keys; // pressed or released
        std::vector<unsigned> chars;
    };
    Frame& next_frame() { return frames_.emplace_back(); }

    std::deque<Frame> frames_;
    std::optional<ImVec2> mouse_; // stays where the script left it, as a person's pointer does
    bool down_[3] = {false, false, false};
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
