#pragma once
// The panel's "Preset and command line" section: a file field with Save preset / Load preset,
// and Copy command line (the clipboard, and shown). Presets are preset.h's JSON files.
#include "app/core/preset.h"
#include "app/core/requests.h"
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"

namespace kc {

// What decides the window's picture now, as a preset.
Preset preset_of(const UiState& s);

// Sets the window to the preset: the job at once; the canvas size, images and kernel between
// frames, through the same requests as the panel's own controls.
void apply_preset(const Preset& p, UiState& s, Requests& requests);

// The section's contents; call inside the panel window.
void preset_section(UiState& s, const PanelContext& ctx);

} // namespace kc
