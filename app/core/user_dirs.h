#pragma once
// Where kcanvas keeps the user's files, as the XDG base directory spec has it: settings under
// $XDG_CONFIG_HOME/kcanvas, work (autosaves, rescued kernels) under $XDG_DATA_HOME/kcanvas, and
// pictures in the user's Pictures folder. The one place these rules live.
#include <filesystem>
#include <optional>
#include <string>

namespace kc {

// $XDG_CONFIG_HOME/kcanvas, else ~/.config/kcanvas: imgui.ini and settings.conf. Created if
// missing; empty when there is no HOME either.
std::string config_dir();

// $XDG_DATA_HOME/kcanvas, else ~/.local/share/kcanvas (not created here): the kernel autosave,
// kernel.cu, rescued kernels, exercise progress. nullopt when neither variable is set.
std::optional<std::filesystem::path> user_data_dir();

// Where a kernel's source goes when CUDA must stop (a fault, a hung GPU): <data dir>/rescued,
// else the working directory. Not created here.
std::filesystem::path rescue_dir();

// Where screenshots and recordings go by default: the folder `xdg-user-dir PICTURES` names when it
// exists and is not the home folder itself (what xdg-user-dir says when none is set), else the
// working directory. Absolute. Asked once per process.
std::filesystem::path pictures_dir();

// The rule of pictures_dir() on xdg-user-dir's answer (`answer`, its stdout) and $HOME (`home`).
std::filesystem::path pictures_dir_from(const std::string& answer, const std::string& home);

} // namespace kc
