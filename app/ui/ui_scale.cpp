#include "app/ui/ui_scale.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace kc {

namespace {

constexpr const char* kTextFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kMonoFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
constexpr float kTextPixels = 13.0f, kMonoPixels = 13.0f; // at 100 %: the line height of ImGui's own font

// The latest content scale GLFW reported (its callback carries no user data we own).
float& reported_content_scale() {
    static float scale = 1.0f;
    return scale;
}
void on_content_scale(GLFWwindow*, float x, float y) { reported_content_scale() = std::max(x, y); }

// A whole pixel size: fractional sizes blur the glyphs.
float font_pixels(float base, float scale) { return std::round(base * scale); }

} // namespace

UiScale::UiScale(GLFWwindow* window) {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window, &x, &y);
    reported_content_scale() = x > 0 && y > 0 ? std::max(x, y) : 1.0f;
    glfwSetWindowContentScaleCallback(window, &on_content_scale);
}

float UiScale::content_scale() const { return reported_content_scale(); }

bool UiScale::update(int percent) {
    const float wanted = content_scale() * static_cast<float>(percent) / 100.0f;
    if (std::abs(wanted - scale_) < 1e-3f) return false;
    scale_ = wanted;
    rebuild_fonts(scale_);
    ImGui::GetStyle() = ui_style(scale_);
    return true;
}

ImGuiStyle ui_style(float scale) {
    ImGuiStyle style; // fresh, so that sizes are scaled once: ScaleAllSizes on a scaled style compounds
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_PopupBg].w = 1.0f;
    style.ScaleAllSizes(scale);
    return style;
}

void UiScale::rebuild_fonts(float scale) {
    ImGui::GetIO().Fonts->Clear();
    true_type_ = add_ui_fonts(scale);
    // The backend makes the texture itself at its first NewFrame; afterwards it is replaced here.
    if (texture_made_) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    texture_made_ = true; // from the next call on: update() runs before each frame's NewFrame
}

bool add_ui_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    std::error_code ec;
    // Latin-1 and the ✓ of passed exercises (DejaVu has it); the table must outlive the atlas.
    static const ImWchar kTextGlyphs[] = {0x0020, 0x00FF, 0x2713, 0x2713, 0};
    const bool true_type =
        std::filesystem::exists(kTextFont, ec) &&
        io.Fonts->AddFontFromFileTTF(kTextFont, font_pixels(kTextPixels, scale), nullptr, kTextGlyphs) != nullptr;
    if (!true_type) {
        ImFontConfig config;
        config.SizePixels = font_pixels(13.0f, scale);
        io.Fonts->AddFontDefault(&config);
    }
    if (std::filesystem::exists(kMonoFont, ec))
        io.Fonts->AddFontFromFileTTF(kMonoFont, font_pixels(kMonoPixels, scale));
    return true_type;
}

ImFont* mono_font() {
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    return atlas->Fonts.Size > 1 ? atlas->Fonts[1] : atlas->Fonts[0];
}

} // namespace kc
