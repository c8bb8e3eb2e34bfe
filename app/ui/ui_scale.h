#pragma once
// The UI's size: the font and ImGui's style follow the monitor's content scale
// (glfwGetWindowContentScale, and its callback when the window moves to another monitor) times
// the user's UI scale setting. The font is DejaVu Sans (fonts-dejavu-core), with DejaVu Sans Mono
// for tables and code; ImGui's built-in font when the files are missing.
#include <imgui.h>

struct GLFWwindow;

namespace kc {

class UiScale {
public:
    // Reads the window's content scale and follows its changes. ImGui's context and backends must exist.
    explicit UiScale(GLFWwindow* window);
    // Rebuilds fonts and style when content scale x `percent` changed. Call between frames,
    // before ImGui_ImplOpenGL3_NewFrame. Returns whether it rebuilt.
    bool update(int percent);
    float scale() const { return scale_; }        // content scale x percent / 100, as last applied
    float content_scale() const;                  // the monitor's, as GLFW reports it
    bool true_type() const { return true_type_; } // the TrueType font loaded (else ImGui's built-in)

private:
    void rebuild_fonts(float scale);
    float scale_ = 0.0f;
    bool true_type_ = false;
    bool texture_made_ = false; // the OpenGL3 backend made its font texture at its first NewFrame
};

// Loads DejaVu Sans and Sans Mono at `scale` times 13 pixels into ImGui's font atlas (ImGui's
// built-in font when missing); returns whether the TrueType font loaded.
bool add_ui_fonts(float scale);

// kcanvas's look at `scale`: ImGui's dark colours with opaque popups (ImGui's let 6 % of what lies
// beneath through, and the panel's text showed between an open list's items), sizes scaled once.
ImGuiStyle ui_style(float scale);

// The monospaced font for aligned columns and code (the default font if there is none).
ImFont* mono_font();

} // namespace kc
