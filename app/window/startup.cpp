#include "app/window/startup.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <fmt/format.h>
#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <utility>

#include "app/core/imgui_ini.h"
#include "app/core/timeline_file.h"
#include "app/core/user_dirs.h"
#include "app/ui/panels/exercise_panel.h"
#include "app/ui/panels/lesson_panel.h"
#include "app/ui/ui_scale.h"
#include "app/window/requests.h"
#include "render/io/atomic_file.h"
#include "render/io/bounded_file.h"
#include "render/io/quoted.h"

namespace kc {

ImGuiSession::ImGuiSession(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // kcanvas reads imgui.ini, checked, and writes it (SettingsFile)
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard; // Esc closes popups, Tab moves between fields
    ImGui::GetStyle() = ui_style(1.0f);                               // UiScale scales it to the monitor
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiSession::~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

namespace {

// imgui.ini into ImGui, checked first; returns what was dropped, or why it was not read.
std::optional<std::string> load_imgui_ini(SettingsFile& file) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(file.ini_path, ec))) return std::nullopt; // first run
    std::string text;
    if (auto e = read_bounded_file(file.ini_path, kMaxImGuiIniBytes, "ImGui's layout file", text)) {
        file.ini_writable = false;
        return *e + "; the default layout is used, and the file is left as it is";
    }
    const CheckedIni checked = check_imgui_ini(text);
    ImGui::LoadIniSettingsFromMemory(checked.text.data(), checked.text.size());
    file.ini_saved = text;
    if (checked.dropped.empty()) return std::nullopt;
    std::string said = fmt::format("{}: left out what ImGui cannot be trusted with:", escaped(file.ini_path));
    for (std::size_t i = 0; i < checked.dropped.size() && i < 3; ++i) said += (i ? "; " : " ") + checked.dropped[i];
    if (checked.dropped.size() > 3) said += fmt::format("; {} more", checked.dropped.size() - 3);
    return said;
}

void save_imgui_ini(SettingsFile& file) {
    ImGuiIO& io = ImGui::GetIO();
    io.WantSaveIniSettings = false;
    if (file.ini_path.empty() || !file.ini_writable) return;
    const std::string text = ImGui::SaveIniSettingsToMemory();
    if (text == file.ini_saved) return;
    if (auto e = write_file_atomically(file.ini_path, std::string_view(text))) fmt::print(stderr, "kcanvas: {}\n", *e);
    file.ini_saved = text;
}

} // namespace

SettingsFile settings_file_for(const Options& o, Messages& messages) {
    const std::string dir = o.script.empty() || o.user_settings ? config_dir() : std::string();
    SettingsFile file;
    file.run_percent = o.ui_scale_percent;
    if (dir.empty()) return file;
    file.path = dir + "/settings.conf";
    LoadedSettings loaded = read_settings(file.path);
    file.saved = loaded.settings, file.writable = loaded.writable;
    file.ini_path = dir + "/imgui.ini";
    const auto ini_problem = load_imgui_ini(file);
    if (loaded.problem || ini_problem) // one message: the bar shows a topic's latest
        messages.warning(Topic::Settings, loaded.problem && ini_problem ? *loaded.problem + "\n" + *ini_problem
                                          : loaded.problem              ? *loaded.problem
                                                                        : *ini_problem);
    return file;
}

void save_changed_settings(const UiState& s, SettingsFile& file, bool force) {
    if (ImGui::GetIO().WantSaveIniSettings || force) save_imgui_ini(file);
    UiSettings wanted = s.settings;
    if (file.run_percent > 0 && wanted.ui_scale_percent == file.run_percent)
        wanted.ui_scale_percent = file.saved.ui_scale_percent;
    if (file.path.empty() || !file.writable || wanted == file.saved || (!force && ImGui::IsAnyMouseDown())) return;
    if (auto e = save_settings(file.path, wanted)) fmt::print(stderr, "kcanvas: {}\n", *e);
    file.saved = wanted;
}

std::optional<int> prepare_state(const Options& o, UiState& state, Requests& requests, SettingsFile& settings,
                                 Canvas& canvas, const FramePainter& painter) {
    state.job = job_from_options(o);
    if (!o.lesson.empty()) { // checked by parse_options; read again here
        if (auto e = open_lesson(state.lesson, o.lesson)) {
            fmt::print(stderr, "kcanvas: --lesson: {}\n", *e);
            return 2;
        }
    }
    if (!o.timeline_in.empty()) { // checked by parse_options; read again here
        auto recorded = read_timeline_file(o.timeline_in);
        if (auto* e = std::get_if<std::string>(&recorded)) {
            fmt::print(stderr, "kcanvas: --timeline-in: {}\n", *e);
            return 2;
        }
        state.timeline.recorded = std::move(std::get<RecordedTimeline>(recorded));
    }
    load_exercise_progress(state.exercise); // the ✓ of the Exercises section
    state.exercise.gpu = o.gpu.value_or(0);
    state.teach.block_outlines = o.block_outlines; // a preset's overlays
    state.teach.pinned_pixel = o.inspect;
    if (o.canvas_zoom) requests.push(request::SetZoom{*o.canvas_zoom});
    state.settings = settings.saved;
    if (o.ui_scale_percent > 0) state.settings.ui_scale_percent = o.ui_scale_percent;
    state.ui_scale_edit = state.settings.ui_scale_percent;
    for (auto [slot, path] : {std::pair{0, &o.image}, {1, &o.image2}}) {
        if (path->empty()) continue;
        if (auto e = state.sources.load(slot, *path)) {
            fmt::print(stderr, "kcanvas: --image{}: {}\n", slot ? "2" : "", *e);
            return 2;
        }
        std::snprintf(state.image_path[slot].data(), state.image_path[slot].size(), "%s", path->c_str());
    }
    if (state.sources.loaded(0) && !o.size_given) {
        canvas.resize(state.sources.original(0).width, state.sources.original(0).height);
        state.job.params.width = canvas.width(), state.job.params.height = canvas.height();
    }
    state.sources.fit(canvas.width(), canvas.height());
    state.edit_width = canvas.width();
    state.edit_height = canvas.height();
    state.backend = painter.backend();
    state.present = painter.present();
    state.vsync = o.vsync;
    if (o.ab) { // --ab A B, or a preset holding a split: the window opens split
        state.ab.on = state.ab.b_chosen = true;
        state.ab.split = *o.ab;
    }
    return std::nullopt;
}

void show_autosave(Messages& messages, const std::optional<AutosaveResult>& result) {
    if (result) messages.post(Topic::Autosave, result->ok ? Severity::Info : Severity::Error, result->message);
}

std::optional<Autosave> start_editor(const Options& o, KernelEditorState& kernel, Messages& messages) {
    const auto path = autosave_file();
    const AutosaveOpening found = path ? open_autosave(*path) : AutosaveOpening{};
    const bool restored =
        start_kernel_editor(kernel, messages, o.kernel_path, o.kernel_source, path ? path->string() : "", found);
    kernel.mode = o.kernel_mode;
    if (!path) {
        show_autosave(messages, AutosaveResult{false, "no autosave: neither XDG_DATA_HOME nor HOME is set"});
        return std::nullopt;
    }
    std::optional<Autosave> autosave(std::in_place, *path, kernel.source,
                                     restored ? found.text : std::optional<std::string>());
    kernel.autosave_path = autosave->file().string();
    if (!autosave->notice().empty()) { // said in the status bar too: the editor may not be shown
        const std::string said = "your last session's kernel was not restored: " + autosave->notice();
        messages.warning(Topic::Autosave, said);
        messages.warning(Topic::Status, said);
    }
    return autosave;
}

} // namespace kc
