#include "app/script/script_input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace kc {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

struct NamedKey {
    int key;
    unsigned text; // what a press types without modifiers
};

const std::map<std::string, NamedKey>& named_keys() {
    static const std::map<std::string, NamedKey> keys = {
        {"enter", {GLFW_KEY_ENTER, 0}},
        {"return", {GLFW_KEY_ENTER, 0}},
        {"escape", {GLFW_KEY_ESCAPE, 0}},
        {"esc", {GLFW_KEY_ESCAPE, 0}},
        {"tab", {GLFW_KEY_TAB, 0}},
        {"backspace", {GLFW_KEY_BACKSPACE, 0}},
        {"delete", {GLFW_KEY_DELETE, 0}},
        {"space", {GLFW_KEY_SPACE, ' '}},
        {"up", {GLFW_KEY_UP, 0}},
        {"down", {GLFW_KEY_DOWN, 0}},
        {"left", {GLFW_KEY_LEFT, 0}},
        {"right", {GLFW_KEY_RIGHT, 0}},
        {"home", {GLFW_KEY_HOME, 0}},
        {"end", {GLFW_KEY_END, 0}},
        {"pageup", {GLFW_KEY_PAGE_UP, 0}},
        {"pagedown", {GLFW_KEY_PAGE_DOWN, 0}},
        {"plus", {GLFW_KEY_KP_ADD, '+'}},
        {"minus", {GLFW_KEY_MINUS, '-'}},
        {"equal", {GLFW_KEY_EQUAL, '='}},
        {"kp_add", {GLFW_KEY_KP_ADD, '+'}},
        {"kp_subtract", {GLFW_KEY_KP_SUBTRACT, '-'}},
    };
    return keys;
}

std::optional<NamedKey> key_named(const std::string& name) {
    if (const auto it = named_keys().find(name); it != named_keys().end()) return it->second;
    if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0])))
        return NamedKey{GLFW_KEY_A + (name[0] - 'a'), unsigned(name[0])};
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])))
        return NamedKey{GLFW_KEY_0 + (name[0] - '0'), unsigned(name[0])};
    // f1 ... f25: one or two digits (a longer number overflowed std::stoi, which threw out of the
    // script: found by fuzz_ui_script).
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    if (name.size() >= 2 && name.size() <= 3 && name[0] == 'f' && std::all_of(name.begin() + 1, name.end(), digit)) {
        const int n = std::stoi(name.substr(1));
        if (n >= 1 && n <= 25) return NamedKey{GLFW_KEY_F1 + n - 1, 0};
    }
    return std::nullopt;
}

// The modifier keys a chord holds down around its key, as a keyboard sends them.
std::vector<int> modifier_keys(int mods) {
    std::vector<int> keys;
    if (mods & GLFW_MOD_CONTROL) keys.push_back(GLFW_KEY_LEFT_CONTROL);
    if (mods & GLFW_MOD_SHIFT) keys.push_back(GLFW_KEY_LEFT_SHIFT);
    if (mods & GLFW_MOD_ALT) keys.push_back(GLFW_KEY_LEFT_ALT);
    if (mods & GLFW_MOD_SUPER) keys.push_back(GLFW_KEY_LEFT_SUPER);
    return keys;
}

// UTF-8 to code points (invalid bytes are skipped).
std::vector<unsigned> code_points(const std::string& s) {
    std::vector<unsigned> out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) {
            ++i;
            continue;
        }
        unsigned cp = n == 1 ? c : c & (0x7F >> n);
        for (int k = 1; k < n; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += std::size_t(n);
    }
    return out;
}

// The pointer's events go to the callbacks installed on the window, which GLFW calls for a hand's:
// ImGui's backend, which calls the window's own first (app/window/mouse_events.h). GLFW 3.3 has
// no getter for a callback: set and put back.
void send_move(GLFWwindow* window, ImVec2 p) {
    const GLFWcursorposfun installed = glfwSetCursorPosCallback(window, nullptr);
    glfwSetCursorPosCallback(window, installed);
    if (installed) installed(window, p.x, p.y);
}
void send_button(GLFWwindow* window, int button, bool pressed) {
    const GLFWmousebuttonfun installed = glfwSetMouseButtonCallback(window, nullptr);
    glfwSetMouseButtonCallback(window, installed);
    if (installed) installed(window, button, pressed ? GLFW_PRESS : GLFW_RELEASE, 0);
}

} // namespace

std::optional<KeyChord> parse_key_chord(const std::string& name) {
    KeyChord chord;
    std::stringstream parts(lower(name));
    std::string part, last;
    std::vector<std::string> words;
    while (std::getline(parts, part, '+')) words.push_back(part);
    if (name.ends_with("++")) words.back() = "plus"; // "ctrl++"
    if (words.empty()) return std::nullopt;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        const std::string& m = words[i];
        if (m == "ctrl" || m == "control")
            chord.mods |= GLFW_MOD_CONTROL;
        else if (m == "shift")
            chord.mods |= GLFW_MOD_SHIFT;
        else if (m == "alt")
            chord.mods |= GLFW_MOD_ALT;
        else if (m == "super")
            chord.mods |= GLFW_MOD_SUPER;
        else
            return std::nullopt;
    }
    const auto key = key_named(words.back());
    if (!key) return std::nullopt;
    chord.key = key->key;
    // Ctrl or Alt chords type nothing; Shift types the capital letter.
    if (!(chord.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) && key->text)
        chord.text = (chord.mods & GLFW_MOD_SHIFT) && std::isalpha(int(key->text))
                         ? unsigned(std::toupper(int(key->text)))
                         : key->text;
    return chord;
}

void ScriptedInput::move_to(ImVec2 p) { next_frame().pointer.push_back({p, {}}); }

void ScriptedInput::click(ImVec2 p, Button b) {
    move_to(p); // hovered first: ImGui acts on a press over an item it already hovers
    next_frame().pointer.push_back({{}, std::pair{b, true}});
    next_frame().pointer.push_back({{}, std::pair{b, false}});
    idle_frames(1);
}

void ScriptedInput::quick_click(ImVec2 p, ImVec2 then, Button b) {
    move_to(p); // hovered first, as click() does
    Frame& f = next_frame();
    f.pointer.push_back({{}, std::pair{b, true}});
    f.pointer.push_back({{}, std::pair{b, false}});
    f.pointer.push_back({then, {}});
    idle_frames(2);
}

void ScriptedInput::drag(ImVec2 from, ImVec2 by, Button b) {
    move_to(from);
    next_frame().pointer.push_back({{}, std::pair{b, true}});
    constexpr int kSteps = 6; // several moves, as a hand makes, so drag thresholds are crossed
    for (int i = 1; i <= kSteps; ++i)
        move_to(ImVec2(from.x + by.x * float(i) / kSteps, from.y + by.y * float(i) / kSteps));
    next_frame().pointer.push_back({{}, std::pair{b, false}});
    idle_frames(1);
}

void ScriptedInput::wheel(float steps) {
    next_frame().wheel = steps;
    idle_frames(1);
}

void ScriptedInput::key(const KeyChord& k) {
    Frame& press = next_frame();
    for (int m : modifier_keys(k.mods)) press.keys.push_back({KeyChord{m, k.mods, 0}, true});
    press.keys.push_back({k, true});
    if (k.text) press.chars.push_back(k.text);
    Frame& release = next_frame();
    release.keys.push_back({k, false});
    for (int m : modifier_keys(k.mods)) release.keys.push_back({KeyChord{m, 0, 0}, false});
    idle_frames(1);
}

void ScriptedInput::type(const std::string& utf8) {
    next_frame().chars = code_points(utf8);
    idle_frames(1);
}

void ScriptedInput::idle_frames(int n) {
    for (int i = 0; i < n; ++i) next_frame();
}

void ScriptedInput::feed(GLFWwindow* window) {
    if (!frames_.empty()) {
        const Frame f = frames_.front();
        frames_.pop_front();
        for (const PointerEvent& e : f.pointer) {
            if (e.move) send_move(window, *e.move);
            if (e.button) send_button(window, int(e.button->first), e.button->second);
        }
        for (const auto& [k, pressed] : f.keys)
            ImGui_ImplGlfw_KeyCallback(window, k.key, 0, pressed ? GLFW_PRESS : GLFW_RELEASE, k.mods);
        for (unsigned c : f.chars) ImGui_ImplGlfw_CharCallback(window, c);
        if (f.wheel != 0.0f) ImGui_ImplGlfw_ScrollCallback(window, 0.0, f.wheel);
    }
}

FoundWidget find_widget(const std::vector<WidgetRecord>& drawn, const std::string& wanted) {
    std::string label = wanted;
    std::size_t nth = 0; // 0: the label must be unique
    if (const auto open = label.rfind(" ["); open != std::string::npos && label.ends_with(']')) {
        try {
            nth = std::stoul(label.substr(open + 2));
            label = label.substr(0, open);
        } catch (const std::exception&) {
        }
    }
    const bool popup_open = std::any_of(drawn.begin(), drawn.end(), [](const WidgetRecord& r) { return r.in_popup; });
    auto matches = [&](bool prefix) {
        std::vector<const WidgetRecord*> found;
        for (const WidgetRecord& r : drawn) {
            if (popup_open && !r.in_popup) continue;
            if (prefix ? r.label.starts_with(label) : r.label == label) found.push_back(&r);
        }
        return found;
    };
    auto found = matches(false);
    if (found.empty()) found = matches(true);
    if (found.empty() && popup_open) {
        // Not in the open popup: a person may click something else, which closes it.
        std::vector<WidgetRecord> all(drawn);
        for (WidgetRecord& r : all) r.in_popup = false;
        FoundWidget outside = find_widget(all, wanted);
        if (outside.widget) outside.widget = &drawn[std::size_t(outside.widget - all.data())];
        return outside;
    }
    auto names = [&](const std::vector<const WidgetRecord*>& rs) {
        std::string s;
        for (const WidgetRecord* r : rs) s += (s.empty() ? "'" : ", '") + r->label + "'";
        return s;
    };
    if (found.empty()) {
        std::vector<const WidgetRecord*> shown;
        for (const WidgetRecord& r : drawn)
            if (r.visible && (!popup_open || r.in_popup)) shown.push_back(&r);
        return {nullptr, fmt::format("no control labelled '{}'; shown: {}", label, names(shown))};
    }
    if (nth > 0) {
        if (nth > found.size()) return {nullptr, fmt::format("only {} controls labelled '{}'", found.size(), label)};
        return {found[nth - 1], {}};
    }
    if (found.size() > 1)
        return {nullptr, fmt::format("'{}' is ambiguous: {} (add \" [N]\" for the Nth)", label, names(found))};
    return {found.front(), {}};
}

} // namespace kc
