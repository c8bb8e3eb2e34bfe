#include "app/window/key_events.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <utility>

namespace kc {

namespace {

// The key bindings: a key and its modifiers to a command of the request table (app/core/requests.h).
struct ShortcutKey {
    int key, mods;
    Shortcut shortcut;
    std::string_view command;
    bool types_text; // the key types into a focused text field, which then owns it
};
// F12 and Ctrl+Q type nothing, so they work while a text field has the keyboard.
constexpr ShortcutKey kShortcuts[] = {
    {GLFW_KEY_F12, 0, Shortcut::SaveCanvas, "save-canvas", false},
    {GLFW_KEY_Q, GLFW_MOD_CONTROL, Shortcut::Quit, "quit", false},
};

const ShortcutKey* binding_for(const KeyPress& press, bool typing) {
    const int held =
        press.mods & (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT | GLFW_MOD_SUPER); // not Caps/Num Lock
    for (const ShortcutKey& s : kShortcuts)
        if (press.key == s.key && held == s.mods && !(typing && s.types_text)) return &s;
    return nullptr;
}

} // namespace

std::optional<Shortcut> shortcut_for(const KeyPress& press, bool typing) {
    const ShortcutKey* s = binding_for(press, typing);
    return s ? std::optional<Shortcut>(s->shortcut) : std::nullopt;
}

std::optional<std::string_view> command_for(const KeyPress& press, bool typing) {
    const ShortcutKey* s = binding_for(press, typing);
    return s ? std::optional<std::string_view>(s->command) : std::nullopt;
}

KeyEvents::KeyEvents(GLFWwindow* window) : window_(window) {
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, &KeyEvents::on_key);
}

KeyEvents::~KeyEvents() {
    glfwSetKeyCallback(window_, nullptr);
    glfwSetWindowUserPointer(window_, nullptr);
}

std::vector<KeyPress> KeyEvents::drain() { return std::exchange(presses_, {}); }

void KeyEvents::hold_short_presses(const std::vector<KeyPress>& presses) {
    ImGuiIO& io = ImGui::GetIO();
    for (const int key : std::exchange(held_, {})) io.KeysDown[key] = glfwGetKey(window_, key) == GLFW_PRESS;
    // The modifiers as ImGui's GLFW backend derives them, then those of the presses held now.
    io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
    for (const KeyPress& press : presses) {
        if (press.key < 0 || press.key >= IM_ARRAYSIZE(io.KeysDown) || io.KeysDown[press.key]) continue;
        io.KeysDown[press.key] = true;
        held_.push_back(press.key);
        io.KeyCtrl |= (press.mods & GLFW_MOD_CONTROL) != 0;
        io.KeyShift |= (press.mods & GLFW_MOD_SHIFT) != 0;
        io.KeyAlt |= (press.mods & GLFW_MOD_ALT) != 0;
        io.KeySuper |= (press.mods & GLFW_MOD_SUPER) != 0;
    }
}

void KeyEvents::on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
    auto* self = static_cast<KeyEvents*>(glfwGetWindowUserPointer(window));
    if (self) ++self->seen_;
    if (self && action == GLFW_PRESS) self->presses_.push_back({key, mods});
}

} // namespace kc
