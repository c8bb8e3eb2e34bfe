#pragma once
// What the window sets up once before its first frame: the ImGui session, the settings file, the
// state the panel edits (from the command line), and the kernel editor with its autosave.
#include <optional>
#include <string>

#include "app/cli/options.h"
#include "app/core/autosave.h"
#include "app/core/messages.h"
#include "app/core/requests.h"
#include "app/core/settings.h"
#include "app/ui/ui_state.h"
#include "render/canvas.h"
#include "render/frame_painter.h"

struct GLFWwindow;

namespace kc {

// ImGui's context and backends, shut down in reverse order of set-up. ImGui reads and writes no
// file itself: kcanvas loads imgui.ini, checked, and saves it (SettingsFile).
class ImGuiSession {
public:
    explicit ImGuiSession(GLFWwindow* window);
    ~ImGuiSession();
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;
};

// The window settings (UI scale, the panel's side and width) and what the file holds, and ImGui's
// imgui.ini beside it. --ui-scale is for one run: the file keeps its own scale unless the panel's
// slider changes it. A file that could not be read (a FIFO, too big) is said in the status bar and
// never written over.
struct SettingsFile {
    std::string path; // empty: none (scripts, whose pictures must not depend on what a user saved)
    UiSettings saved;
    bool writable = true;
    int run_percent = 0;   // --ui-scale, or 0
    std::string ini_path;  // empty: none
    std::string ini_saved; // imgui.ini's text as read or last written
    bool ini_writable = true;
};
// Reads both files (ImGui's context must exist: imgui.ini goes to it, checked by app/core/imgui_ini.h).
SettingsFile settings_file_for(const Options& o, Messages& messages);
// Saves changed settings, and imgui.ini when ImGui asks; unless `force`, only once no mouse button
// is down (not on every frame of a drag of the panel's edge).
void save_changed_settings(const UiState& s, SettingsFile& file, bool force);

// The state the panel edits, from the options: the job, the settings, the input images (the canvas
// takes image A's size unless --size was given), a preset's overlays and zoom. A bad image file is
// bad input: returns exit code 2 then.
std::optional<int> prepare_state(const Options& o, UiState& state, Requests& requests, SettingsFile& settings,
                                 Canvas& canvas, const FramePainter& painter);

// The kernel editor's text and its autosave (none without a data dir, which the editor says).
std::optional<Autosave> start_editor(const Options& o, KernelEditorState& kernel, Messages& messages);

// Shows an autosave's outcome under the editor.
void show_autosave(Messages& messages, const std::optional<AutosaveResult>& result);

} // namespace kc
