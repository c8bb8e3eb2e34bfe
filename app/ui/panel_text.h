#pragma once
// How the panels lay out text so that nothing is cut off at the panel's right edge: prose wraps
// at word boundaries, formulas and code break only between tokens, buttons that do not fit move
// to the next line.
#include <imgui.h>

#include <string_view>

namespace kc {

inline const ImVec4 kWarnColour(1.0f, 0.7f, 0.3f, 1.0f);
inline const ImVec4 kErrorColour(1.0f, 0.35f, 0.35f, 1.0f);
inline const ImVec4 kGoodColour(0.4f, 1.0f, 0.4f, 1.0f);

// Prose, wrapped at spaces at the panel's edge, in a colour (ImGui's TextColored and TextDisabled
// do not wrap, and its TextWrapped also breaks after '.', inside `blockIdx.x`).
void wrapped_text(const ImVec4& colour, std::string_view text);
void wrapped_disabled(std::string_view text);
void wrapped(std::string_view text); // in the text colour

// Code or a formula, one line per '\n': a line too wide for the panel breaks at spaces only, so
// `threadIdx.y*50` never splits, and continues indented. A single token wider than the panel stays whole.
void code_lines(std::string_view text);

// SameLine() if an item `width` wide still fits on this line, else nothing: it starts the next.
void same_line_if_fits(float width);
// The width ImGui::Button(label) and ImGui::RadioButton(label) take.
float button_width(std::string_view label);
float radio_width(std::string_view label);

} // namespace kc
