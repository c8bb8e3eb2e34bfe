#include "app/window/mouse_events.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace kc {

namespace {

// The window's MouseEvents (the window's user pointer is KeyEvents').
std::vector<std::pair<GLFWwindow*, MouseEvents*>>& listeners() {
    static std::vector<std::pair<GLFWwindow*, MouseEvents*>> all;
    return all;
}

} // namespace

MouseEvents::MouseEvents(GLFWwindow* window) : window_(window) {
    listeners().emplace_back(window_, this);
    glfwSetMouseButtonCallback(window_, &MouseEvents::on_button);
    glfwSetCursorPosCallback(window_, &MouseEvents::on_move);
    glfwSetCursorEnterCallback(window_, &MouseEvents::on_enter);
    glfwSetScrollCallback(window_, &MouseEvents::on_wheel);
}

MouseEvents::~MouseEvents() {
    glfwSetMouseButtonCallback(window_, nullptr);
    glfwSetCursorPosCallback(window_, nullptr);
    glfwSetCursorEnterCallback(window_, nullptr);
    glfwSetScrollCallback(window_, nullptr);
    std::erase_if(listeners(), [this](const auto& l) { return l.second == this; });
}

MouseEvents* MouseEvents::of(GLFWwindow* window) {
    for (const auto& [w, events] : listeners())
        if (w == window) return events;
    return nullptr;
}

void MouseEvents::on_button(GLFWwindow* window, int button, int action, int /*mods*/) {
    if (MouseEvents* self = of(window)) self->take({Event::Button, 0, 0, button, action == GLFW_PRESS});
}

void MouseEvents::on_move(GLFWwindow* window, double x, double y) {
    if (MouseEvents* self = of(window)) self->take({Event::Move, x, y});
}

void MouseEvents::on_enter(GLFWwindow* window, int entered) {
    if (MouseEvents* self = of(window); self && !entered) self->take({Event::Leave});
}

void MouseEvents::on_wheel(GLFWwindow* window, double, double) {
    if (MouseEvents* self = of(window)) ++self->seen_; // ImGui's backend adds it up itself
}

void MouseEvents::take(const Event& e) {
    ++seen_;
    if (e.kind == Event::Button && (e.button < 0 || e.button >= kButtons)) return; // ImGui has no such button
    queue_.push_back(e);
}

void MouseEvents::feed_imgui() {
    while (!queue_.empty()) {
        const Event e = queue_.front();
        queue_.pop_front();
        if (e.kind == Event::Move) x_ = e.x, y_ = e.y, over_window_ = true;
        if (e.kind == Event::Leave) over_window_ = false;
        if (e.kind == Event::Button && down_[e.button] != e.pressed) {
            down_[e.button] = e.pressed;
            break; // ImGui sees this change at this position; what came after, next frame
        }
    }
    ImGuiIO& io = ImGui::GetIO();
    if (over_window_) io.MousePos = ImVec2(float(x_), float(y_)); // else the backend's reading
    for (int b = 0; b < kButtons; ++b) io.MouseDown[b] = down_[b];
}

} // namespace kc
