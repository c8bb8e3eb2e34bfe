#pragma once
// Key presses from GLFW's key callback (events), queued until the frame loop drains them: a press
// shorter than a frame is never lost, as it would be by polling glfwGetKey once a frame (F12 at
// the CPU backend's 2 fps). Construct it before ImGui's GLFW backend installs its callbacks: the
// backend keeps ours and calls it before its own (imgui_impl_glfw.cpp, PrevUserCallbackKey).
#include <optional>
#include <string_view>
#include <vector>

struct GLFWwindow;

namespace kc {

struct KeyPress {
    int key = 0;  // GLFW_KEY_*
    int mods = 0; // GLFW_MOD_* held at the press
};

// What a key press asks of the app.
enum class Shortcut { SaveCanvas, Quit };

// The shortcut a press means, or nullopt. `typing`: a text field has the keyboard (ImGui's
// io.WantTextInput): keys that type are the field's then; F12 and Ctrl+Q type nothing and still work.
std::optional<Shortcut> shortcut_for(const KeyPress& press, bool typing);
// The same press as the name of the command it is bound to ("save-canvas", "quit": app/core/requests.h).
std::optional<std::string_view> command_for(const KeyPress& press, bool typing);

class KeyEvents {
public:
    // Installs the key callback on `window`, reaching this object through the window's user pointer.
    explicit KeyEvents(GLFWwindow* window);
    ~KeyEvents(); // removes the callback and the user pointer
    KeyEvents(const KeyEvents&) = delete;
    KeyEvents& operator=(const KeyEvents&) = delete;

    // The presses since the last call, oldest first.
    std::vector<KeyPress> drain();
    // How many key events (presses, repeats, releases) came so far: the idle wait draws after any.
    unsigned long events_seen() const { return seen_; }

    // Dear ImGui 1.86 reads keys as held-down state once a frame, so a press released before the
    // next frame never reaches it (Esc on a combo, Enter or Backspace in a field, at 2 fps). Call
    // before ImGui's NewFrame with drain()'s presses: those whose key is up again are held down
    // for this one frame, with their modifiers; the next call lets them go.
    void hold_short_presses(const std::vector<KeyPress>& presses);

private:
    static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
    GLFWwindow* window_;
    std::vector<KeyPress> presses_;
    std::vector<int> held_; // keys hold_short_presses() holds down for ImGui this frame
    unsigned long seen_ = 0;
};

} // namespace kc
