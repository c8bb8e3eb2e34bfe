#pragma once
// Mouse buttons and pointer moves from GLFW's callbacks, queued and handed to Dear ImGui at most
// one button change a frame, each at the position the pointer had when it happened. ImGui 1.86
// reads the mouse as state once a frame, and its GLFW backend only remembers that a button went
// down: a press and release inside one slow frame reached ImGui as one frame held down and the
// next released, both at wherever the pointer was by then. When the hand had moved on, the click
// landed beside its control and did nothing (issue 25: 4 of 200 clicks on the CPU backend).
// Construct before ImGui's GLFW backend installs its callbacks: the backend keeps ours and calls
// them before its own (imgui_impl_glfw.cpp, PrevUserCallbackMousebutton and the like).
#include <deque>

struct GLFWwindow;

namespace kc {

class MouseEvents {
public:
    explicit MouseEvents(GLFWwindow* window); // installs the button, move, enter and wheel callbacks
    ~MouseEvents();                           // and removes them
    MouseEvents(const MouseEvents&) = delete;
    MouseEvents& operator=(const MouseEvents&) = delete;

    // Call after ImGui's backend NewFrame (which read GLFW's state) and before ImGui::NewFrame:
    // sets io.MouseDown, and io.MousePos while the pointer is over the window, to the queue's
    // events up to and including the first button change; later events wait for the next frame.
    void feed_imgui();
    // Events wait in the queue for later frames: the next frame must not wait for input.
    bool behind() const { return !queue_.empty(); }
    // How many mouse events came so far (the idle wait draws a few frames after any).
    unsigned long events_seen() const { return seen_; }

private:
    struct Event {
        enum Kind { Move, Leave, Button } kind;
        double x = 0, y = 0;  // Move
        int button = 0;       // Button: GLFW_MOUSE_BUTTON_*
        bool pressed = false; // Button
    };
    static void on_button(GLFWwindow* window, int button, int action, int mods);
    static void on_move(GLFWwindow* window, double x, double y);
    static void on_enter(GLFWwindow* window, int entered);
    static void on_wheel(GLFWwindow* window, double dx, double dy);
    static MouseEvents* of(GLFWwindow* window);
    void take(const Event& e);

    static constexpr int kButtons = 5; // ImGui's io.MouseDown
    GLFWwindow* window_;
    std::deque<Event> queue_;
    unsigned long seen_ = 0;
    bool over_window_ = false; // a move came since the pointer last left: pos_ is where it is
    double x_ = 0, y_ = 0;
    bool down_[kButtons] = {};
};

} // namespace kc
