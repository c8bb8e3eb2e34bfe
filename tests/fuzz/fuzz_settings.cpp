// libFuzzer target: the window's own files on arbitrary text (issue 24: an imgui.ini [Table] of
// 2^31 columns crashed ImGui at start). settings.conf is read by kc::parse_settings, whose values
// must come out clamped; imgui.ini goes through kc::check_imgui_ini and then into ImGui itself, as
// at the window's start, and a frame is run on it. Never a crash, hang or UB. Built with ASan and
// UBSan by scripts/fuzz.sh (-DKC_FUZZ=ON); inputs that crash become tests in tests/cpu/test_settings.cpp.
#include <imgui.h>
#include <imgui_internal.h> // ImGui::ClearIniSettings

#include <cstdint>
#include <string>

#include "app/core/imgui_ini.h"
#include "app/core/settings.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // as the window: kcanvas hands ImGui the checked text
    io.DisplaySize = ImVec2(1280, 860);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const kc::UiSettings s = kc::parse_settings(text);
    if (s.ui_scale_percent < kc::UiSettings::kMinScalePercent ||
        s.ui_scale_percent > kc::UiSettings::kMaxScalePercent ||
        !(s.panel_width >= kc::UiSettings::kMinPanelWidth && s.panel_width <= 4000.0f))
        __builtin_trap();
    const kc::CheckedIni checked = kc::check_imgui_ini(text);
    ImGui::ClearIniSettings();
    ImGui::LoadIniSettingsFromMemory(checked.text.data(), checked.text.size());
    ImGui::NewFrame();
    ImGui::Begin("Debug##Default");
    ImGui::End();
    ImGui::EndFrame();
    return 0;
}
