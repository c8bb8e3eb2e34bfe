#include "app/window/windowed.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "app/core/autosave.h"
#include "app/core/block_sweep.h"
#include "app/core/kernel_editor.h"
#include "app/core/kernel_files.h"
#include "app/core/settings.h"
#include "app/core/watchdog.h"
#include "app/script/ui_script.h"
#include "app/ui/panel.h"
#include "app/ui/panels/record_panel.h"
#include "app/ui/panels/teach_panel.h"
#include "app/ui/panels/tune_panel.h"
#include "app/ui/ui_scale.h"
#include "app/ui/widgets.h"
#include "app/window/canvas_input.h"
#include "app/window/key_events.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/image_io.h"

namespace kc {

namespace {

// ImGui's context and backends, shut down in reverse order of set-up.
class ImGuiSession {
public:
    ImGuiSession(GLFWwindow* window, const std::string& ini_path) : ini_path_(ini_path) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
        ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard; // Esc closes popups, Tab moves between fields
        ImGui::GetStyle() = ui_style(1.0f);                               // UiScale scales it to the monitor
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    ~ImGuiSession() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;

private:
    std::string ini_path_; // ImGui keeps the pointer
};

// ImGui's own layout (windows other than the panel) persists in $XDG_CONFIG_HOME/kcanvas/imgui.ini.
std::string ini_path() {
    const std::string dir = config_dir();
    return dir.empty() ? std::string("imgui.ini") : dir + "/imgui.ini";
}

// The window settings (UI scale, the panel's side and width) beside it; none for scripts, whose
// pictures must not depend on what a user saved.
std::string settings_path(const Options& o) {
    const std::string dir = o.script.empty() ? config_dir() : std::string();
    return dir.empty() ? std::string() : dir + "/settings.conf";
}

// The settings file and what it holds. --ui-scale is for one run: the file keeps its own scale
// unless the panel's slider changes it.
struct SettingsFile {
    std::string path; // empty: none (scripts)
    UiSettings saved;
    int run_percent = 0; // --ui-scale, or 0
};

UiSettings initial_settings(const Options& o, SettingsFile& file) {
    file.saved = file.path.empty() ? UiSettings{} : load_settings(file.path);
    file.run_percent = o.ui_scale_percent;
    UiSettings settings = file.saved;
    if (o.ui_scale_percent > 0) settings.ui_scale_percent = o.ui_scale_percent;
    return settings;
}

// Saves changed settings once no mouse button is down (not on every frame of a drag of the panel's edge).
void save_changed_settings(const UiState& s, SettingsFile& file, bool force) {
    UiSettings wanted = s.settings;
    if (file.run_percent > 0 && wanted.ui_scale_percent == file.run_percent)
        wanted.ui_scale_percent = file.saved.ui_scale_percent;
    if (file.path.empty() || wanted == file.saved || (!force && ImGui::IsAnyMouseDown())) return;
    if (auto e = save_settings(file.path, wanted)) fmt::print(stderr, "kcanvas: {}\n", *e);
    file.saved = wanted;
}

// Files dropped on the window since the last frame (GLFW calls back from glfwPollEvents).
std::vector<std::string>& dropped_files() {
    static std::vector<std::string> files; // GLFW's drop callback carries no user data we own
    return files;
}
void on_drop(GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) dropped_files().emplace_back(paths[i]);
}

void set_path_field(UiState& s, int slot, const std::string& path) {
    std::snprintf(s.image_path[slot].data(), s.image_path[slot].size(), "%s", path.c_str());
}

// "kcanvas-<op>-YYYYmmdd-HHMMSS.png" in the Pictures folder (else the working directory).
std::string snapshot_name(const UiState& s) {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    return (pictures_dir() / fmt::format("kcanvas-{}-{}.png", op_registry()[s.job.op].name, stamp)).string();
}

// Loads and clears images; a bad file leaves the current image and says why.
void apply_image_requests(UiState& s) {
    auto& drops = dropped_files();
    if (!drops.empty()) {
        // One file: image A; two or more: A and B.
        s.load_request[0] = drops[0];
        if (drops.size() > 1) s.load_request[1] = drops[1];
        drops.clear();
    }
    for (int slot = 0; slot < 2; ++slot) {
        if (s.clear_request[slot]) {
            s.clear_request[slot] = false;
            s.sources.clear(slot);
            s.image_error[slot].clear();
        }
        if (!s.load_request[slot]) continue;
        const std::string path = *std::exchange(s.load_request[slot], std::nullopt);
        set_path_field(s, slot, path);
        if (auto e = s.sources.load(slot, path)) {
            s.image_error[slot] = *e;
        } else {
            s.image_error[slot].clear();
            const Image& im = s.sources.original(slot);
            s.message = fmt::format("loaded {} ({}x{}) as image {}", path, im.width, im.height, slot == 0 ? 'A' : 'B');
        }
    }
    if (s.fit_canvas_to_image) {
        s.fit_canvas_to_image = false;
        if (s.sources.loaded(0)) {
            s.edit_width = s.sources.original(0).width, s.edit_height = s.sources.original(0).height;
            s.apply_size = true;
        }
    }
}

// The canvas where the view puts it: only the visible part of the texture is drawn, so a 64x
// zoom of a 4K canvas never asks GL for a viewport past its limits.
void draw_canvas_view(const Canvas& canvas, const CanvasView& v, int fb_h) {
    const RectD shown = v.visible_rect();
    const double ppp = v.pixels_per_point();
    const int x0 = int(std::lround(shown.x * ppp)), x1 = int(std::lround((shown.x + shown.w) * ppp));
    const int y0 = int(std::lround(shown.y * ppp)), y1 = int(std::lround((shown.y + shown.h) * ppp));
    if (x1 <= x0 || y1 <= y0) return;
    // The texture part under exactly these whole framebuffer pixels.
    const PointD a = v.to_canvas({x0 / ppp, y0 / ppp}), b = v.to_canvas({x1 / ppp, y1 / ppp});
    const float w = float(canvas.width()), h = float(canvas.height());
    canvas.draw_part({x0, fb_h - y1, x1 - x0, y1 - y0},
                     {float(a.x) / w, float(a.y) / h, float(b.x) / w, float(b.y) / h});
}

// Applies what the panel asked for that needs more than a new paint job: size, backend, vsync.
void apply_requests(UiState& s, Canvas& canvas, FramePainter& painter, GlfwWindow& window, bool& vsync_now) {
    apply_image_requests(s);
    if (s.apply_size) {
        s.apply_size = false;
        if (auto e = canvas_size_error(s.edit_width, s.edit_height)) {
            s.message = *e;
        } else if (s.edit_width != canvas.width() || s.edit_height != canvas.height()) {
            canvas.resize(s.edit_width, s.edit_height);
            s.job.params.width = canvas.width();
            s.job.params.height = canvas.height();
            s.sources.fit(canvas.width(), canvas.height());
            painter.times().clear();
            s.message = fmt::format("canvas resized to {}x{}", canvas.width(), canvas.height());
        }
    }
    if (s.requested_backend != painter.backend()) {
        if (!painter.set_backend(s.requested_backend)) {
            s.message = fmt::format("{} is not available: {}", backend_name(s.requested_backend),
                                    painter.unavailable_reason(s.requested_backend));
            s.requested_backend = painter.backend();
        }
    }
    if (s.requested_present != painter.present()) painter.set_present(s.requested_present);
    if (s.window_size_request) {
        const auto [w, h] = *std::exchange(s.window_size_request, std::nullopt);
        glfwSetWindowSize(window.handle(), w, h);
    }
    if (s.vsync != vsync_now) {
        window.set_vsync(s.vsync);
        vsync_now = s.vsync;
        painter.times().clear();
    }
}

// The kernel editor's Load: the file's text replaces the editor's, and compiles.
void load_kernel_file(KernelEditorState& k, const std::string& path) {
    std::snprintf(k.path.data(), k.path.size(), "%s", path.c_str());
    std::string text;
    if (auto e = read_text_file(path, text)) {
        k.file_message = *e + "; the editor keeps its text";
        return;
    }
    k.source = std::move(text), k.saved_source = k.source, k.answer.clear();
    k.file_name = file_name_of(path), k.compile_request = true;
    k.file_message = "loaded " + path, k.save_failed = false;
}

// The kernel editor's Save (the panel's button, the "Unsaved kernel" dialog's): to `path`, else
// the data dir's kernel.cu, shown in the file field from then on. Returns whether it saved.
bool save_kernel_file(KernelEditorState& k, std::string path) {
    if (path.empty()) path = k.fallback_path;
    std::snprintf(k.path.data(), k.path.size(), "%s", path.c_str());
    if (path == k.fallback_path) { // the data dir may not exist yet; a failure shows in the write's message
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    }
    const auto e = write_text_file(path, k.source);
    k.file_message = e ? *e : "saved " + path;
    k.save_failed = e.has_value();
    if (!e) k.file_name = file_name_of(path), k.saved_source = k.source;
    return !e;
}

void apply_kernel_file_requests(UiState& s) {
    KernelEditorState& k = s.kernel;
    if (k.load_request) load_kernel_file(k, *std::exchange(k.load_request, std::nullopt));
    if (!k.save_request) return;
    const bool saved = save_kernel_file(k, *std::exchange(k.save_request, std::nullopt));
    if (std::exchange(s.quit_after_save, false) && saved) s.quit = true; // a failed save keeps the dialog open
}

// The user's kernel: loads, saves, and compiles (Compile, Ctrl+Enter, a loaded file or starter,
// or the op shown for the first time). A failed compile leaves the running kernel alone; on the
// CPU backend a compile waits for a CUDA backend. Returns whether a new kernel now runs.
bool apply_kernel_requests(UiState& s, FramePainter& painter) {
    KernelEditorState& k = s.kernel;
    apply_kernel_file_requests(s);
    if (painter.backend() == Backend::Cpu) return false;
    if (op_registry()[s.job.op].user_code && !k.compiled_once) k.compile_request = true;
    if (!k.compile_request) return false;
    k.compile_request = false;
    k.compiled_once = true;
    const KernelCompile result = painter.compile_user_kernel(k.source, k.file_name);
    k.last_ok = result.ok, k.log = result.log, k.target = result.target, k.compile_ms = result.milliseconds;
    k.error_lines = error_lines(k.log, k.file_name);
    return result.ok;
}

// F12 saves the canvas, Ctrl+Q quits (asking first), Esc cancels the "Unsaved kernel" dialog.
// Presses come from GLFW's events, so a press shorter than a frame still counts, for ImGui too.
void handle_keys(KeyEvents& keys, UiState& s) {
    const bool typing = ImGui::GetIO().WantTextInput; // as of the last frame's panel
    const std::vector<KeyPress> presses = keys.drain();
    keys.hold_short_presses(presses);
    for (const KeyPress& press : presses) {
        if (press.key == GLFW_KEY_ESCAPE && s.unsaved_dialog) s.unsaved_dialog = false, s.quit_after_save = false;
        const auto shortcut = shortcut_for(press, typing);
        if (shortcut == Shortcut::SaveCanvas) s.save_request = true;
        if (shortcut == Shortcut::Quit) s.quit_request = true;
    }
}

// The close button or Ctrl+Q: quits, unless the editor holds unsaved edits, which open the
// "Unsaved kernel" dialog (Save, Discard, Cancel). After a fault the source is saved already.
void handle_quit_request(GLFWwindow* window, UiState& s) {
    if (glfwWindowShouldClose(window)) {
        glfwSetWindowShouldClose(window, GLFW_FALSE); // the dialog may veto it
        s.quit_request = true;
    }
    if (!std::exchange(s.quit_request, false)) return;
    const bool ask = s.kernel.unsaved() && s.fatal.empty();
    (ask ? s.unsaved_dialog : s.quit) = true;
}

// The editor starts with --kernel's file, else the autosave of the last session, else the
// default starter.
void start_kernel_editor(KernelEditorState& k, const Options& o, const std::optional<std::filesystem::path>& autosave) {
    const auto data_dir = user_data_dir();
    k.fallback_path = data_dir ? (*data_dir / "kernel.cu").string() : std::string("kernel.cu");
    std::snprintf(k.path.data(), k.path.size(), "%s", o.kernel_path.c_str());
    std::string restored;
    std::error_code ec;
    if (!o.kernel_source.empty()) { // --kernel's file, or a preset's source
        k.source = o.kernel_source, k.file_name = o.kernel_path.empty() ? "preset.cu" : file_name_of(o.kernel_path);
    } else if (autosave && std::filesystem::exists(*autosave, ec) && !read_text_file(autosave->string(), restored)) {
        k.source = std::move(restored), k.file_name = file_name_of(autosave->string());
        k.file_message =
            "restored your last session's kernel (" + autosave->string() + "); the Starter menu starts afresh";
    } else {
        load_starter(k, default_starter());
        k.compile_request = false; // the op compiles it when first shown
    }
    k.saved_source = k.source;
}

using Clock = std::chrono::steady_clock;

// A preset's zoom, about the middle of the canvas area; 0: fit.
void apply_zoom_request(CanvasView& view, double zoom) {
    if (zoom <= 0) return view.fit();
    const RectD& area = view.viewport();
    view.zoom_about({area.x + area.w / 2, area.y + area.h / 2}, zoom / view.zoom());
}

std::string tuner_done_message(const BlockSweep& sweep) {
    if (sweep.fastest_first().empty()) return "no block shape could run";
    const Dim3& best = sweep.fastest_first().front().block;
    return fmt::format("tuning done: fastest block {}x{}; the Apply button uses it", best.x, best.y);
}

// The panel's "Find the fastest block" between frames: starts, cancels or advances the block
// sweep. A sweep runs a slice of work per frame (the window keeps painting and answering) and
// paints the canvas itself while it runs; it stops when the op, the canvas or the backend it
// measures changes. Returns whether it painted this frame.
bool advance_tuner(UiState& s, std::optional<BlockSweep>& sweep, FramePainter& painter, Canvas& canvas) {
    constexpr auto kSlice = std::chrono::milliseconds(25); // of work per frame, so the window stays usable
    const TuneRequests t = std::exchange(s.tune, TuneRequests{});
    if (t.start && !(sweep && sweep->running()))
        sweep.emplace(painter, canvas, s.job, painter.backend() == Backend::Cpu ? 3 : 30, &s.sources);
    if (!sweep || !sweep->running()) return false;
    const PaintJob& measured = sweep->job();
    if (measured.op != s.job.op || measured.params.width != canvas.width() ||
        measured.params.height != canvas.height() || sweep->backend() != painter.backend()) {
        sweep->cancel();
        s.tune_ended = true;
        s.message = "tuning cancelled: the op, the canvas size or the backend changed";
        return false;
    }
    if (t.cancel) {
        sweep->cancel();
        s.tune_ended = true;
        s.message = fmt::format("tuning cancelled after {} / {} shapes; the block stays {}x{}", sweep->shapes_done(),
                                sweep->shape_count(), s.job.launch.block.x, s.job.launch.block.y);
        return false;
    }
    try {
        if (!sweep->step(kSlice)) {
            s.message = tuner_done_message(*sweep);
            s.tune_ended = true;
        }
    } catch (...) {
        sweep->cancel(); // the frame loop reports the error
        throw;
    }
    return sweep->running();
}

void show_autosave(KernelEditorState& k, const std::optional<AutosaveResult>& result) {
    if (!result) return;
    k.autosave_message = result->message, k.autosave_failed = !result->ok;
}

// At quit nothing can show a failure any more but the terminal.
void report_final_autosave(const std::optional<AutosaveResult>& result) {
    if (result && !result->ok) fmt::print(stderr, "kcanvas: {}\n", result->message);
}

// Sets up the state the panel edits from the options: the job, the settings, the input images
// (the canvas takes image A's size unless --size was given) and the kernel editor. A bad image
// file is bad input: returns exit code 2 then.
std::optional<int> prepare_state(const Options& o, UiState& state, SettingsFile& settings_file, Canvas& canvas,
                                 const FramePainter& painter) {
    state.job = job_from_options(o);
    state.teach.block_outlines = o.block_outlines; // a preset's overlays
    state.teach.pinned_pixel = o.inspect;
    if (o.canvas_zoom) state.zoom_request = *o.canvas_zoom;
    state.settings = initial_settings(o, settings_file);
    state.ui_scale_edit = state.settings.ui_scale_percent;
    for (auto [slot, path] : {std::pair{0, &o.image}, {1, &o.image2}}) {
        if (path->empty()) continue;
        if (auto e = state.sources.load(slot, *path)) {
            fmt::print(stderr, "kcanvas: --image{}: {}\n", slot ? "2" : "", *e);
            return 2;
        }
        set_path_field(state, slot, *path);
    }
    if (state.sources.loaded(0) && !o.size_given) {
        canvas.resize(state.sources.original(0).width, state.sources.original(0).height);
        state.job.params.width = canvas.width(), state.job.params.height = canvas.height();
    }
    state.sources.fit(canvas.width(), canvas.height());
    state.edit_width = canvas.width();
    state.edit_height = canvas.height();
    state.requested_backend = painter.backend();
    state.requested_present = painter.present();
    state.vsync = o.vsync;
    return std::nullopt;
}

// The kernel editor's text and its autosave (none without a data dir, which the editor says).
std::optional<Autosave> start_editor(const Options& o, KernelEditorState& kernel) {
    const auto autosave_path = autosave_file();
    start_kernel_editor(kernel, o, autosave_path);
    if (!autosave_path) {
        show_autosave(kernel, AutosaveResult{false, "no autosave: neither XDG_DATA_HOME nor HOME is set"});
        return std::nullopt;
    }
    return std::optional<Autosave>(std::in_place, *autosave_path, kernel.source);
}

// What the window's frames need, set up once by run_windowed.
struct Window {
    GlfwWindow& window;
    KeyEvents& keys;
    UiScale& ui_scale;
    FramePainter& painter;
    Canvas& canvas;
    UiScript* script; // null without --script
};

// The window's frame loop: each frame is the named steps of run(), top to bottom.
class FrameLoop {
public:
    FrameLoop(const Options& o, const Window& w, UiState& state, SettingsFile& settings,
              std::optional<Autosave>& autosave)
        : w_(w), s_(state), settings_(settings), autosave_(autosave), vsync_now_(o.vsync),
          watchdog_(std::chrono::seconds(o.watchdog_s)) {}

    void run() {
        while (!s_.quit) {
            if (!take_input()) break;
            apply_requests_between_frames();
            paint();
            build_panel();
            draw();
            finish_frame();
        }
    }

private:
    bool take_input();
    void apply_requests_between_frames();
    void paint();
    void paint_or_tune();
    void take_fault(const CudaContextLost& e);
    void build_panel();
    void draw();
    void finish_frame();
    UiScript::Hooks script_hooks();

    Window w_;
    UiState& s_;
    SettingsFile& settings_;
    std::optional<Autosave>& autosave_;
    bool vsync_now_;
    Watchdog watchdog_;
    bool watch_gpu_ = false;          // this frame's: a CUDA backend, no fault yet
    std::optional<BlockSweep> sweep_; // the block tuner's running or last sweep (its results stay shown)
    int fb_w_ = 0, fb_h_ = 0;
    const Clock::time_point started_ = Clock::now();
    Clock::time_point last_frame_ = started_;
    Clock::time_point last_tick_ = started_; // the animation clock's last step (time_clock.h)
    WindowRecorder recorder_;                // the Record section's recording, a few frames per window frame
    double frame_ms_ = 0.0;
    FrameBreakdown breakdown_;
};

UiScript::Hooks FrameLoop::script_hooks() {
    return {[this](const std::string& path) {
                return write_image(path, w_.canvas.width(), w_.canvas.height(), w_.canvas.read_texture());
            },
            [this](const std::string& path) { return write_image(path, fb_w_, fb_h_, read_framebuffer(fb_w_, fb_h_)); },
            [this] { return tuner_status(sweep_ ? &*sweep_ : nullptr); }};
}

// Events, keys, the close button and the script's next commands. False: quit now.
bool FrameLoop::take_input() {
    glfwPollEvents();
    // A frame went round: the GPU answers. Armed for CUDA only (the CPU emulator's long frames
    // are not hangs).
    watch_gpu_ = w_.painter.backend() != Backend::Cpu && s_.fatal.empty();
    watchdog_.beat();
    watchdog_.arm(watch_gpu_);
    handle_keys(w_.keys, s_);
    handle_quit_request(w_.window.handle(), s_);
    if (s_.quit) return false;
    if (w_.script && s_.fatal.empty()) {
        w_.script->step(s_, script_hooks());
        if (s_.quit) return false;
    }
    return true;
}

// What the panel asked for that needs more than a new paint job: sizes, images, the backend.
void FrameLoop::apply_requests_between_frames() {
    watchdog_.arm(false); // loading or saving a large image is slow CPU work, not a hung GPU
    apply_requests(s_, w_.canvas, w_.painter, w_.window, vsync_now_);
    watchdog_.arm(watch_gpu_ && w_.painter.backend() != Backend::Cpu); // the backend may have changed
    s_.job.params.seconds = static_cast<float>(tick_clock(s_, last_tick_));
    // Resolved and checked once: the painter runs it, the panel and the overlay show it.
    s_.resolved = resolve_launch(s_.job, w_.painter.limits());
    if (s_.fatal.empty()) recorder_.advance(s_, w_.painter); // a few frames of a recording, if one runs
}

// CUDA (or the CPU emulator) paints the canvas; an illegal launch keeps the old picture. After a
// kernel fault CUDA can do nothing more: the last picture and the panel stay until the user has
// read why and quits.
void FrameLoop::paint() {
    const auto t_paint = Clock::now();
    if (s_.fatal.empty()) {
        try {
            paint_or_tune();
        } catch (const CudaContextLost& e) {
            take_fault(e);
        } catch (const std::exception& e) {
            s_.error = e.what();
        }
    }
    breakdown_.paint.add(micros_since(t_paint));
}

// A kernel fault took the CUDA context: the user's kernel is saved, the window says why and stays.
void FrameLoop::take_fault(const CudaContextLost& e) {
    FramePainter& p = w_.painter;
    s_.fatal = kernel_fault_message(e.what(), p.has_user_kernel() ? save_faulted_kernel(p.user_kernel_source()) : "");
    fmt::print(stderr, "kcanvas: {}\n", s_.fatal); // at once: the window may not get to show it
}

void FrameLoop::paint_or_tune() {
    FramePainter& p = w_.painter;
    // The running kernel is what a hang would lose (as a fault saves it): given once per compile.
    if (apply_kernel_requests(s_, p)) watchdog_.rescue(p.user_kernel_source());
    if (!advance_tuner(s_, sweep_, p, w_.canvas))
        s_.refusal = p.paint(s_.job, s_.resolved, w_.canvas, &s_.sources, s_.both_variants);
    s_.error.clear();
    p.collect_timings();
}

// The panel edits the state for the next frame; the canvas' input and overlay follow its layout.
void FrameLoop::build_panel() {
    const auto t_panel = Clock::now();
    if (w_.ui_scale.update(s_.settings.ui_scale_percent)) s_.ui_scale = w_.ui_scale.scale();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (w_.script) w_.script->feed_input(w_.window.handle());
    ImGui::NewFrame();
    if (widget_log()) widget_log()->begin_frame();
    const RectD area = draw_panel(s_, {w_.painter, frame_ms_, breakdown_, sweep_ ? &*sweep_ : nullptr});
    const ImGuiIO& io = ImGui::GetIO();
    s_.view.set_viewport(area, io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0);
    s_.view.set_canvas_size(w_.canvas.width(), w_.canvas.height());
    if (s_.zoom_request) apply_zoom_request(s_.view, *s_.zoom_request), s_.zoom_request.reset();
    handle_canvas_input(s_);
    // While a sweep paints the canvas, the overlay's outlines and inspector would describe another launch.
    try { // the inspector reads the GPU's writer record: a fault can surface here first
        if (s_.fatal.empty() && !(sweep_ && sweep_->running())) draw_canvas_overlay(s_, w_.painter, w_.canvas);
    } catch (const CudaContextLost& e) {
        take_fault(e);
    }
    ImGui::Render();
    if (widget_log()) widget_log()->end_frame();
    breakdown_.panel.add(micros_since(t_panel));
}

// The canvas beside the panel, the panel on top.
void FrameLoop::draw() {
    const auto t_draw = Clock::now();
    glfwGetFramebufferSize(w_.window.handle(), &fb_w_, &fb_h_);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w_, fb_h_);
    glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_canvas_view(w_.canvas, s_.view, fb_h_);
    glViewport(0, 0, fb_w_, fb_h_);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    breakdown_.draw.add(micros_since(t_draw));
}

// Saves asked for this frame, then shows the frame and times it.
void FrameLoop::finish_frame() {
    if (s_.save_request) {
        s_.save_request = false;
        const std::string name = snapshot_name(s_);
        const auto e = write_image(name, w_.canvas.width(), w_.canvas.height(), w_.canvas.read_texture());
        s_.message = e ? *e : "saved " + std::filesystem::absolute(name).string();
    }
    if (autosave_) show_autosave(s_.kernel, autosave_->tick(s_.kernel.source, Clock::now()));
    if (w_.script && (w_.script->done() || !s_.fatal.empty())) s_.quit = true;
    save_changed_settings(s_, settings_, false);
    const auto t_swap = Clock::now();
    glfwSwapBuffers(w_.window.handle());
    breakdown_.swap.add(micros_since(t_swap));
    const auto now = Clock::now();
    frame_ms_ = std::chrono::duration<double, std::milli>(now - last_frame_).count();
    breakdown_.frame.add(frame_ms_ * 1000.0);
    last_frame_ = now;
}

} // namespace

int run_windowed(const Options& o) {
    GlfwWindow window(1280, 860, "Kernel Canvas", o.vsync);
    KeyEvents keys(window.handle()); // before ImGui's backend, which then calls it first
    ImGuiSession imgui(window.handle(), o.script.empty() ? ini_path() : std::string());
    UiScale ui_scale(window.handle());
    FramePainter painter(o.backend, o.gpu);
    painter.set_present(o.present);
    Canvas canvas(o.width, o.height); // releases its CUDA registrations before its GL objects
    std::unique_ptr<UiScript> script = o.script.empty() ? nullptr : std::make_unique<UiScript>(o.script);
    WidgetLog widgets; // where each control was drawn, for the script's clicks
    const AttachedWidgetLog attached(script ? &widgets : nullptr);

    UiState state;
    SettingsFile settings_file{settings_path(o), {}, 0};
    if (auto exit = prepare_state(o, state, settings_file, canvas, painter)) return *exit;
    glfwSetDropCallback(window.handle(), &on_drop);
    std::optional<Autosave> autosave = start_editor(o, state.kernel);
    FrameLoop(o, {window, keys, ui_scale, painter, canvas, script.get()}, state, settings_file, autosave).run();
    save_changed_settings(state, settings_file, true);
    if (autosave) report_final_autosave(autosave->flush(state.kernel.source));
    return state.fatal.empty() ? 0 : 1;
}

} // namespace kc
