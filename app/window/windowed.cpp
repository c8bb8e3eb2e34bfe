#include "app/window/windowed.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <fmt/format.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/ab/ab_painter.h"
#include "app/core/autosave.h"
#include "app/core/block_sweep.h"
#include "app/core/kernel_files.h"
#include "app/core/messages.h"
#include "app/core/requests.h"
#include "app/core/watchdog.h"
#include "app/script/ui_script.h"
#include "app/ui/overlay/ab_overlay.h"
#include "app/ui/overlay/canvas_overlay.h"
#include "app/ui/panel.h"
#include "app/ui/panels/record_panel.h"
#include "app/ui/panels/timeline_panel.h"
#include "app/ui/panels/tune_panel.h"
#include "app/ui/ui_scale.h"
#include "app/ui/widgets.h"
#include "app/ui/window_layout.h"
#include "app/window/canvas_draw.h"
#include "app/window/canvas_input.h"
#include "app/window/idle_wait.h"
#include "app/window/key_events.h"
#include "app/window/mouse_events.h"
#include "app/window/requests.h"
#include "app/window/startup.h"
#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/image_io.h"

namespace kc {

namespace {

// Files dropped on the window since the last frame (GLFW calls back from glfwPollEvents).
std::vector<std::string>& dropped_files() {
    static std::vector<std::string> files; // GLFW's drop callback carries no user data we own
    return files;
}
void on_drop(GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) dropped_files().emplace_back(paths[i]);
}

// One dropped file loads image A; two or more, A and B.
void take_dropped_files(Requests& requests) {
    auto& drops = dropped_files();
    for (int slot = 0; slot < 2 && slot < int(drops.size()); ++slot)
        requests.push(request::LoadImage{slot, drops[std::size_t(slot)]});
    drops.clear();
}

// F12 saves the canvas, Ctrl+Q quits (asking first), Esc cancels the kernel editor's dialogs.
// Presses come from GLFW's events, so a press shorter than a frame still counts, for ImGui too.
void handle_keys(KeyEvents& keys, UiState& s, Requests& requests) {
    const bool typing = ImGui::GetIO().WantTextInput; // as of the last frame's panel
    const std::vector<KeyPress> presses = keys.drain();
    keys.hold_short_presses(presses);
    for (const KeyPress& press : presses) {
        if (press.key == GLFW_KEY_ESCAPE && s.unsaved_dialog) s.unsaved_dialog = false;
        if (press.key == GLFW_KEY_ESCAPE && s.record.quit_dialog) s.record.quit_dialog = false;
        if (press.key == GLFW_KEY_ESCAPE) s.kernel.pending.reset(); // the "Replace the kernel?" dialog's Cancel
        if (const auto command = command_for(press, typing)) requests.push(*command_request(*command));
    }
}

using Clock = std::chrono::steady_clock;

// How long a frame waits for the cpu backend's picture before drawing the last finished one:
// short enough that the panel answers a click within a tenth of a second whatever a frame costs.
constexpr std::chrono::milliseconds kPaintWait{40};

// Shorter cpu frames than this are not worth a note: it would flicker.
constexpr double kPaintingNoteAfter = 0.2; // seconds

// While a slow cpu frame paints, the canvas says so (and what the last one took).
void note_painting(const UiState& s, const FramePainter& painter) {
    const std::optional<double> seconds = painter.painting_seconds();
    if (seconds && *seconds >= kPaintingNoteAfter) draw_painting_note(s, *seconds, painter.times().kernel.last() / 1e6);
}

std::string tuner_done_message(const BlockSweep& sweep) {
    if (sweep.fastest_first().empty()) return "no block shape could run";
    const Dim3& best = sweep.fastest_first().front().block;
    return fmt::format("tuning done: fastest block {}x{}; the Apply button uses it", best.x, best.y);
}

// The block tuner's sweep, a slice of work per frame (the window keeps painting and answering);
// it paints the canvas itself while it runs, and stops when the op, the canvas or the backend it
// measures changes. Returns whether it painted this frame. (Starting and cancelling are requests.)
bool advance_tuner(UiState& s, Messages& messages, std::optional<BlockSweep>& sweep, FramePainter& painter,
                   Canvas& canvas) {
    constexpr auto kSlice = std::chrono::milliseconds(25); // of work per frame, so the window stays usable
    if (!sweep || !sweep->running()) return false;
    const PaintJob& measured = sweep->job();
    if (measured.op != s.job.op || measured.params.width != canvas.width() ||
        measured.params.height != canvas.height() || sweep->backend() != painter.backend()) {
        sweep->cancel();
        s.tune_ended = true;
        messages.info(Topic::Status, "tuning cancelled: the op, the canvas size or the backend changed");
        return false;
    }
    try {
        if (!sweep->step(kSlice)) {
            messages.info(Topic::Status, tuner_done_message(*sweep));
            s.tune_ended = true;
        }
    } catch (...) {
        sweep->cancel(); // the frame loop reports the error
        throw;
    }
    return sweep->running();
}

// At quit nothing can show a failure any more but the terminal.
void report_final_autosave(const std::optional<AutosaveResult>& result) {
    if (result && !result->ok) fmt::print(stderr, "kcanvas: {}\n", result->message);
}

// What the window's frames need, set up once by run_windowed.
struct Window {
    GlfwWindow& window;
    KeyEvents& keys;
    MouseEvents& mouse;
    UiScale& ui_scale;
    FramePainter& painter;
    Canvas& canvas;
    UiScript* script; // null without --script
};

// The window's frame loop: each frame is the named steps of run(), top to bottom.
class FrameLoop {
public:
    FrameLoop(const Options& o, const Window& w, UiState& state, Requests& requests, Messages& messages,
              SettingsFile& settings, std::optional<Autosave>& autosave)
        : w_(w), s_(state), requests_(requests), messages_(messages), settings_(settings), autosave_(autosave),
          watchdog_(std::chrono::seconds(o.watchdog_s)) {}

    void run() {
        while (!s_.quit) {
            take_input();
            carry_out_requests_between_frames();
            if (s_.quit) break;
            paint();
            build_panel();
            draw();
            finish_frame();
        }
    }

private:
    void take_input();
    bool screen_moves() const;
    void carry_out_requests_between_frames();
    void paint();
    void paint_or_tune();
    void paint_side_b(bool tuning);
    void place_canvas(const RectD& area);
    void inspect_after_paint();
    void take_fault(const CudaContextLost& e);
    bool faulted() const { return messages_.has(Topic::Fault); }
    void build_panel();
    void draw();
    void finish_frame();
    UiScript::Hooks script_hooks();

    Window w_;
    UiState& s_;
    Requests& requests_; // what the panel, the keys and the script asked for, carried out between frames
    Messages& messages_; // what kcanvas says: the status bar, the panel, the script's status
    SettingsFile& settings_;
    std::optional<Autosave>& autosave_;
    Watchdog watchdog_;
    bool watch_gpu_ = false;                  // this frame's: a CUDA backend, no fault yet
    std::optional<BlockSweep> sweep_;         // the block tuner's running or last sweep (its results stay shown)
    std::optional<CanvasPixel> to_inspect_;   // this frame's inspector pixel, decided before painting
    std::optional<InspectedPixel> inspected_; // what the paint step read of it, for the overlay
    int fb_w_ = 0, fb_h_ = 0;
    const Clock::time_point started_ = Clock::now();
    Clock::time_point last_frame_ = started_;
    Clock::time_point last_tick_ = started_; // the animation clock's last step (time_clock.h)
    WindowRecorder recorder_;                // the Record section's recording, a few frames per window frame
    AbPainter ab_;                           // the A/B split's side B (made when the split first shows)
    double frame_ms_ = 0.0;
    FrameBreakdown breakdown_;
    IdleWait idle_;            // polls while the screen moves, else waits for input
    Clock::duration waited_{}; // this frame's wait for input, left out of its time
};

UiScript::Hooks FrameLoop::script_hooks() {
    return {[this](const std::string& path) {
                w_.painter.finish_painting(w_.canvas); // the picture the script waited for
                ab_.finish_painting();
                return write_image(path, w_.canvas.width(), w_.canvas.height(), w_.canvas.read_texture());
            },
            [this](const std::string& path) { return write_image(path, fb_w_, fb_h_, read_framebuffer(fb_w_, fb_h_)); },
            [this] { return tuner_status(sweep_ ? &*sweep_ : nullptr); }};
}

// Whether the next frame shows something new without input: then it comes at once; else the loop
// waits for input (at most IdleWait::kLongest). A script counts frames: it never waits but in `idle`.
// A cpu frame on the worker lands in a later window frame: looked for every frame, as it comes.
bool FrameLoop::screen_moves() const {
    const bool clock_shows = !s_.clock.paused && (op_registry()[s_.job.op].user_code || s_.teach.stepping);
    return (w_.script && !w_.script->idle()) || clock_shows || s_.teach.step_request || s_.record.running ||
           (sweep_ && sweep_->running()) || w_.painter.painting_seconds() || !requests_.empty() || w_.mouse.behind() ||
           ImGui::IsAnyMouseDown();
}

// Events, keys, the close button, dropped files and the script's next commands, as requests.
void FrameLoop::take_input() {
    watchdog_.arm(false); // waiting for input is not a hung GPU
    waited_ = idle_.take_events(screen_moves(), w_.mouse.events_seen() + w_.keys.events_seen());
    // A frame went round: the GPU answers. Armed for CUDA only (the CPU emulator's long frames
    // are not hangs).
    watch_gpu_ = w_.painter.backend() != Backend::Cpu && !faulted();
    watchdog_.beat();
    watchdog_.arm(watch_gpu_);
    handle_keys(w_.keys, s_, requests_);
    if (glfwWindowShouldClose(w_.window.handle())) {
        glfwSetWindowShouldClose(w_.window.handle(), GLFW_FALSE); // the "Unsaved kernel" dialog may veto it
        requests_.push(request::Quit{/*ask_first=*/true});
    }
    take_dropped_files(requests_);
    if (w_.script && !faulted()) w_.script->step(s_, requests_, messages_, script_hooks());
}

// What was asked that needs more than an edit of the job (app/window/requests.cpp), then the
// clock, the launch resolved once (the painter runs it, the panel and the overlay show it), and a
// few frames of a recording, if one runs.
void FrameLoop::carry_out_requests_between_frames() {
    watchdog_.arm(false); // loading or saving a large image is slow CPU work, not a hung GPU
    RequestTargets targets{s_, messages_, w_.canvas, w_.painter, w_.window, sweep_, recorder_};
    carry_out_requests(requests_, targets);
    watchdog_.arm(watch_gpu_ && w_.painter.backend() != Backend::Cpu); // the backend may have changed
    s_.job.params.seconds = static_cast<float>(tick_clock(s_, last_tick_));
    s_.resolved = resolve_launch(s_.job, w_.painter.limits());
    if (!faulted()) recorder_.advance(s_, messages_);
    if (s_.record.quit_when_done && !recorder_.running()) { // "Finish recording, then quit": it has
        s_.record.quit_when_done = false;
        requests_.push(request::Quit{/*ask_first=*/true});
    }
}

// CUDA (or the CPU emulator) paints the canvas; an illegal launch keeps the old picture. After a
// kernel fault CUDA can do nothing more: the last picture and the panel stay until the user has
// read why and quits. A lost CUDA context is caught here, and only here.
void FrameLoop::paint() {
    const auto t_paint = Clock::now();
    if (!faulted()) {
        try {
            paint_or_tune();
            inspect_after_paint();
        } catch (const CudaContextLost& e) {
            take_fault(e);
        } catch (const std::exception& e) {
            messages_.error(Topic::Paint, e.what());
        }
    }
    breakdown_.paint.add(micros_since(t_paint));
}

// A kernel fault took the CUDA context: the user's kernel is saved, the window says why and stays.
void FrameLoop::take_fault(const CudaContextLost& e) {
    FramePainter& p = w_.painter;
    const std::string why =
        kernel_fault_message(e.what(), p.has_user_kernel() ? save_faulted_kernel(p.user_kernel_source()) : "");
    messages_.post(Topic::Fault, Severity::Fatal, why);
    fmt::print(stderr, "kcanvas: {}\n", why); // at once: the window may not get to show it
}

void FrameLoop::paint_or_tune() {
    FramePainter& p = w_.painter;
    // The running kernel is what a hang would lose (as a fault saves it): given once per compile.
    if (compile_wanted_kernel(s_, p)) watchdog_.rescue(p.user_kernel_source());
    // The inspector's pixel is decided before painting, so this paint records who wrote it. While
    // a sweep paints the canvas, the overlay's outlines and inspector would describe another launch.
    const bool tuning = sweep_ && sweep_->running();
    to_inspect_ = tuning || messages_.has(Topic::Launch)
                      ? std::nullopt
                      : pixel_to_inspect(s_.job, s_.resolved, s_.teach, s_.view, w_.canvas.width(), w_.canvas.height());
    p.record_writers(to_inspect_ && !s_.resolved.own); // custom ops' kernels record none
    p.record_timeline(s_.timeline.on);
    s_.timeline.canvas_block = block_of_pixel(s_.job, s_.resolved, w_.canvas.width(), w_.canvas.height(), to_inspect_);
    // The user's kernel marks repeats, block edges and the inspected pixel's block from its writer
    // record (checked mode), in the colour pass: its blocks have no shape the overlay knows.
    s_.job.marks = WriterMarks{};
    if (op_registry()[s_.job.op].user_code) {
        s_.job.marks.repeats = s_.teach.flag_repeats, s_.job.marks.block_edges = s_.teach.block_outlines;
        if (to_inspect_) s_.job.marks.outline_x = to_inspect_->x, s_.job.marks.outline_y = to_inspect_->y;
    }
    if (!advance_tuner(s_, messages_, sweep_, p, w_.canvas)) {
        const std::optional<std::string> refusal =
            p.paint_responsive(s_.job, s_.resolved, w_.canvas, &s_.sources, s_.both_variants, kPaintWait);
        if (refusal)
            messages_.error(Topic::Launch, *refusal);
        else
            messages_.clear(Topic::Launch);
    }
    messages_.clear(Topic::Paint);
    p.collect_timings();
    paint_side_b(tuning);
}

// The split's side B, on A's backend, canvas size, images and clock; then the diff, every few frames.
void FrameLoop::paint_side_b(bool tuning) {
    if (!s_.ab.on || tuning) return;
    ab_.paint(s_.ab, s_.job, w_.painter, w_.canvas, s_.sources, kPaintWait);
    ab_.compare(s_.ab, w_.canvas);
}

// What the overlay shows of the inspected pixel: its value and the SM that wrote it.
void FrameLoop::inspect_after_paint() {
    inspected_.reset();
    if (to_inspect_ && !messages_.has(Topic::Launch) && !(sweep_ && sweep_->running()))
        inspected_ = probe_pixel(w_.painter, w_.canvas, s_.job, s_.resolved, *to_inspect_);
}

// The panel edits the state for the next frame; the canvas' input and overlay follow its layout.
void FrameLoop::build_panel() {
    const auto t_panel = Clock::now();
    if (w_.ui_scale.update(s_.settings.ui_scale_percent)) s_.ui_scale = w_.ui_scale.scale();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (w_.script) w_.script->feed_input(w_.window.handle()); // through GLFW's callbacks, as a hand's
    w_.mouse.feed_imgui();                                    // at most one button change a frame
    ImGui::NewFrame();
    if (widget_log()) widget_log()->begin_frame();
    const RectD area =
        draw_panel(s_, {w_.painter, frame_ms_, breakdown_, requests_, messages_, sweep_ ? &*sweep_ : nullptr});
    place_canvas(area);
    draw_ab_overlay(s_); // before the canvas' input: a press on the divider is the divider's
    handle_canvas_input(s_);
    note_painting(s_, w_.painter);
    if (!faulted() && !(sweep_ && sweep_->running()))
        draw_canvas_overlay({s_.job, s_.resolved, s_.teach, s_.view, w_.canvas.width(), w_.canvas.height(),
                             messages_.text(Topic::Launch), inspected_, w_.painter.backend() == Backend::Cpu,
                             s_.timeline.hovered_bar});
    ImGui::Render();
    if (widget_log()) widget_log()->end_frame();
    breakdown_.panel.add(micros_since(t_panel));
}

// The canvas in the area the panel leaves; side by side, A takes its left half and B the right.
void FrameLoop::place_canvas(const RectD& area) {
    const ImGuiIO& io = ImGui::GetIO();
    const double ppp = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0;
    const bool side_by_side = s_.ab.on && s_.ab.split.layout == AbLayout::SideBySide;
    const AbAreas halves = side_by_side_areas(area, ImGui::GetFontSize() * 0.5f);
    s_.view.set_viewport(side_by_side ? halves.a : area, ppp);
    s_.view.set_canvas_size(w_.canvas.width(), w_.canvas.height());
    s_.view.set_whole_fit(s_.job.view != View::Pixels); // the teaching views' patterns, without moiré
    if (!side_by_side) return;
    s_.ab.b_view = s_.view; // the same zoom and pan, in B's half
    s_.ab.b_view.set_viewport(halves.b, ppp);
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
    if (s_.ab.on) draw_ab_split(ab_, s_.ab, s_.view, fb_w_, fb_h_);
    glViewport(0, 0, fb_w_, fb_h_);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    breakdown_.draw.add(micros_since(t_draw));
}

// The autosave, the end of a script, changed settings; then shows the frame and times it.
void FrameLoop::finish_frame() {
    if (autosave_) {
        show_autosave(messages_, autosave_->tick(s_.kernel.source, Clock::now()));
        s_.kernel.autosave_path = autosave_->file().string(); // a file that became unreadable moves it
    }
    if (w_.script && (w_.script->done() || faulted())) s_.quit = true;
    save_changed_settings(s_, settings_, false);
    const auto t_swap = Clock::now();
    glfwSwapBuffers(w_.window.handle());
    breakdown_.swap.add(micros_since(t_swap));
    const auto now = Clock::now();
    frame_ms_ = std::chrono::duration<double, std::milli>(now - last_frame_ - waited_).count();
    breakdown_.frame.add(frame_ms_ * 1000.0);
    last_frame_ = now;
}

} // namespace

int run_windowed(const Options& o) {
    GlfwWindow window(1280, 860, "Kernel Canvas", o.vsync);
    KeyEvents keys(window.handle());    // before ImGui's backend, which then calls them first
    MouseEvents mouse(window.handle()); // likewise
    ImGuiSession imgui(window.handle());
    UiScale ui_scale(window.handle());
    FramePainter painter(o.backend, o.gpu);
    painter.set_kernel_time_limit(o.kernel_time_limit());
    painter.set_present(o.present);
    Canvas canvas(o.width, o.height); // releases its CUDA registrations before its GL objects
    std::unique_ptr<UiScript> script = o.script.empty() ? nullptr : std::make_unique<UiScript>(o.script);
    WidgetLog widgets; // where each control was drawn, for the script's clicks
    const AttachedWidgetLog attached(script ? &widgets : nullptr);

    UiState state;
    Requests requests;
    Messages messages;
    SettingsFile settings_file = settings_file_for(o, messages); // and imgui.ini
    if (auto exit = prepare_state(o, state, requests, settings_file, canvas, painter)) return *exit;
    glfwSetDropCallback(window.handle(), &on_drop);
    std::optional<Autosave> autosave = start_editor(o, state.kernel, messages);
    FrameLoop(o, {window, keys, mouse, ui_scale, painter, canvas, script.get()}, state, requests, messages,
              settings_file, autosave)
        .run();
    save_changed_settings(state, settings_file, true);
    if (autosave) report_final_autosave(autosave->flush(state.kernel.source));
    return messages.has(Topic::Fault) ? 1 : 0;
}

} // namespace kc
