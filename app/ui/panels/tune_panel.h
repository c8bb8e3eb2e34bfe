#pragma once
// The panel's block tuner: "Find the fastest block", the sweep's progress and Cancel while it
// runs, then its results (a heatmap of block x by block y, the sorted table) and an Apply button.
// The sweep itself runs in the frame loop (BlockSweep); this section only shows and asks.
#include <string>

#include "app/core/block_sweep.h"
#include "app/ui/panel.h"
#include "app/ui/ui_state.h"

namespace kc {

// Said wherever CPU timings of block shapes are shown.
inline constexpr const char* kCpuTimingsWarning = "CPU emulator timings: they say nothing about block shapes on a GPU";

// The section's contents, self-contained; call inside the panel window.
void tune_section(UiState& state, const PanelContext& ctx);

// The tuner as the script's status prints it: progress, the CPU warning and the sorted figures,
// one "tuner..." line each; empty before the first sweep.
std::string tuner_status(const BlockSweep* sweep);

} // namespace kc
