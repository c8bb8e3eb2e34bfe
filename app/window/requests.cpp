#include "app/window/requests.h"

#include <GLFW/glfw3.h>
#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <type_traits>
#include <utility>

#include "app/core/autosave.h"
#include "app/core/data_dir.h"
#include "app/core/kernel_editor.h"
#include "app/core/kernel_files.h"
#include "app/core/user_dirs.h"
#include "gpu/registry.h"
#include "render/io/image_io.h"

namespace kc {

namespace {

void set_path_field(std::array<char, 1024>& field, const std::string& path) {
    std::snprintf(field.data(), field.size(), "%s", path.c_str());
}

// "kcanvas-<op>-YYYYmmdd-HHMMSS.png" in the Pictures folder (else the working directory).
std::string snapshot_name(const UiState& s) {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    return (pictures_dir() / fmt::format("kcanvas-{}-{}.png", op_registry()[s.job.op].name, stamp)).string();
}

// A bad file leaves the current image and says why.
void load_image(RequestTargets& t, int slot, const std::string& given, const std::string& why) {
    UiState& s = t.state;
    const std::string path = resolve_data_file(given, "images"); // rose.jpg: the sample, as --image rose.jpg
    set_path_field(s.image_path[slot], path);
    if (auto e = s.sources.load(slot, path)) {
        t.messages.error(image_topic(slot), *e);
        return;
    }
    t.messages.clear(image_topic(slot));
    const Image& im = s.sources.original(slot);
    t.messages.info(Topic::Status, fmt::format("loaded {} ({}x{}) as image {}{}{}", path, im.width, im.height,
                                               slot == 0 ? 'A' : 'B', why.empty() ? "" : ": ", why));
}

void resize_canvas(RequestTargets& t, int width, int height) {
    UiState& s = t.state;
    s.edit_width = width, s.edit_height = height;
    if (auto e = canvas_size_error(width, height)) {
        t.messages.warning(Topic::Status, *e);
    } else if (width != t.canvas.width() || height != t.canvas.height()) {
        t.canvas.resize(width, height);
        s.job.params.width = t.canvas.width();
        s.job.params.height = t.canvas.height();
        s.sources.fit(t.canvas.width(), t.canvas.height());
        t.painter.times().clear();
        t.messages.info(Topic::Status, fmt::format("canvas resized to {}x{}", t.canvas.width(), t.canvas.height()));
    }
}

void set_backend(RequestTargets& t, Backend b) {
    if (b != t.painter.backend() && !t.painter.set_backend(b))
        t.messages.warning(Topic::Status,
                           fmt::format("{} is not available: {}", backend_name(b), t.painter.unavailable_reason(b)));
    t.state.backend = t.painter.backend();
}

void set_vsync(RequestTargets& t, bool on) {
    if (on == t.state.vsync) return;
    t.window.set_vsync(on);
    t.state.vsync = on;
    t.painter.times().clear();
}

void save_canvas(RequestTargets& t) {
    const std::string name = snapshot_name(t.state);
    const auto e = write_image(name, t.canvas.width(), t.canvas.height(), t.canvas.read_texture());
    if (e)
        t.messages.error(Topic::Status, *e);
    else
        t.messages.info(Topic::Status, "saved " + std::filesystem::absolute(name).string());
}

// A preset's zoom, about the middle of the canvas area; 0: fit. False: the canvas has no area yet.
bool set_zoom(CanvasView& view, double zoom) {
    const RectD& area = view.viewport();
    if (area.empty()) return false;
    if (zoom <= 0) {
        view.fit();
    } else {
        view.zoom_about({area.x + area.w / 2, area.y + area.h / 2}, zoom / view.zoom());
    }
    return true;
}

// Puts `text` in the editor. Text that is in no file of the user's is first kept as an earlier
// version (autosave.h) and Undo replace brings it back; when it cannot be kept, nothing changes.
void apply_replacement(RequestTargets& t, KernelText text) {
    KernelEditorState& k = t.state.kernel;
    std::string kept;
    if (k.worth_keeping() && k.source != text.source) {
        const std::filesystem::path live(k.autosave_path);
        const KeptVersion copy = k.autosave_path.empty()
                                     ? KeptVersion{std::nullopt, "there is no data folder (set HOME or XDG_DATA_HOME)"}
                                     : keep_earlier_version(live.parent_path(), k.source, false, live);
        if (!copy.file) {
            t.messages.error(Topic::KernelFile,
                             "the editor keeps its text: it could not be kept as an earlier version (" + copy.error +
                                 "); save it first");
            return;
        }
        kept = "; your text is kept as " + copy.file->string() + " (Earlier versions; Undo replace brings it back)";
    }
    const std::string what = text.what;
    replace_text(k, std::move(text));
    t.messages.info(Topic::KernelFile, "loaded " + what + kept);
}

// A replacement asks first (the "Replace the kernel?" dialog) when the editor's text is in no file
// of the user's; `confirmed`: the dialog's Discard.
void offer_replacement(RequestTargets& t, KernelText text, bool confirmed) {
    KernelEditorState& k = t.state.kernel;
    if (!confirmed && k.worth_keeping() && k.source != text.source) {
        k.pending = std::move(text);
        return;
    }
    k.pending.reset();
    apply_replacement(t, std::move(text));
}

// The kernel editor's Load: the file's text replaces the editor's, and compiles.
void load_kernel(RequestTargets& t, const std::string& path) {
    KernelEditorState& k = t.state.kernel;
    set_path_field(k.path, path);
    std::string text;
    if (auto e = read_text_file(path, text)) {
        t.messages.error(Topic::KernelFile, *e + "; the editor keeps its text");
        return;
    }
    offer_replacement(t, {std::move(text), "", file_name_of(path), path, true, path}, false);
}

// An earlier version from the editor's menu; it is not in a file of the user's (Ctrl+Q asks).
void restore_version(RequestTargets& t, const std::string& path) {
    std::string text;
    if (auto e = read_text_file(path, text)) {
        t.messages.error(Topic::KernelFile, *e + "; the editor keeps its text");
        return;
    }
    offer_replacement(t, {std::move(text), "", "kernel.cu", "the earlier version " + path, false, ""}, false);
    if (!t.state.kernel.pending) mark_seen(path);
}

void undo_replace(RequestTargets& t) {
    KernelEditorState& k = t.state.kernel;
    if (!k.replaced) {
        t.messages.info(Topic::KernelFile, "Undo replace: no starter, file or version has replaced the editor's text");
        return;
    }
    apply_replacement(t, *k.replaced); // what it takes out becomes the next Undo replace (a redo)
}

// The kernel editor's Save (the panel's button, the dialogs'): to `path`, else the data dir's
// kernel.cu, shown in the file field from then on; never into kcanvas's installed data folder
// (kernel_save_target). Returns whether it saved.
bool save_kernel(RequestTargets& t, std::string path) {
    KernelEditorState& k = t.state.kernel;
    path = kernel_save_target(path, k.fallback_path);
    set_path_field(k.path, path);
    if (path == k.fallback_path) { // the data dir may not exist yet; a failure shows in the write's message
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    }
    if (const auto e = write_text_file(path, k.source)) {
        t.messages.error(Topic::KernelFile, *e);
        return false;
    }
    k.file_name = file_name_of(path), k.saved_source = k.source, k.only_in_autosave = false, k.origin_path = path;
    t.messages.info(Topic::KernelFile, "saved " + path);
    return true;
}

void save_then(RequestTargets& t, const request::SaveKernel& r) {
    UiState& s = t.state;
    if (!save_kernel(t, r.path)) return; // a failed save keeps the dialog open
    if (r.then_quit) s.quit = true;
    if (r.then_replace && s.kernel.pending) offer_replacement(t, *std::exchange(s.kernel.pending, {}), true);
}

// The close button and Ctrl+Q ask first when the editor holds unsaved edits (the "Unsaved kernel"
// dialog: Save, Discard, Cancel); after a fault the source is saved already.
// A running recording is asked about first too ("Recording in progress": finish, stop, cancel).
void quit(RequestTargets& t, bool ask_first) {
    UiState& s = t.state;
    if (ask_first && t.recorder.running() && !t.messages.has(Topic::Fault)) {
        s.record.quit_dialog = true;
        return;
    }
    const bool ask = ask_first && s.kernel.unsaved() && !t.messages.has(Topic::Fault);
    (ask ? s.unsaved_dialog : s.quit) = true;
}

void start_tuner(RequestTargets& t) {
    if (t.sweep && t.sweep->running()) return;
    const bool cpu = t.painter.backend() == Backend::Cpu;
    t.sweep.emplace(t.painter, t.canvas, t.state.job, cpu ? 3 : 30, &t.state.sources);
}

void cancel_tuner(RequestTargets& t) {
    if (!t.sweep || !t.sweep->running()) return;
    t.sweep->cancel();
    t.state.tune_ended = true;
    const Dim3& block = t.state.job.launch.block;
    t.messages.info(Topic::Status, fmt::format("tuning cancelled after {} / {} shapes; the block stays {}x{}",
                                               t.sweep->shapes_done(), t.sweep->shape_count(), block.x, block.y));
}

// Carries out one request; false: not yet (it stays queued).
bool carry_out(RequestTargets& t, const Request& request) {
    using namespace request;
    UiState& s = t.state;
    return std::visit(
        [&](const auto& r) {
            using R = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<R, ResizeCanvas>) resize_canvas(t, r.width, r.height);
            if constexpr (std::is_same_v<R, FitCanvasToImage>)
                if (s.sources.loaded(0)) resize_canvas(t, s.sources.original(0).width, s.sources.original(0).height);
            if constexpr (std::is_same_v<R, LoadImage>) load_image(t, r.slot, r.path, r.why);
            if constexpr (std::is_same_v<R, ClearImage>) s.sources.clear(r.slot), t.messages.clear(image_topic(r.slot));
            if constexpr (std::is_same_v<R, SaveCanvas>) save_canvas(t);
            if constexpr (std::is_same_v<R, SetBackend>) set_backend(t, r.backend);
            if constexpr (std::is_same_v<R, SetPresent>) t.painter.set_present(r.present), s.present = r.present;
            if constexpr (std::is_same_v<R, SetVsync>) set_vsync(t, r.on);
            if constexpr (std::is_same_v<R, ResizeWindow>) glfwSetWindowSize(t.window.handle(), r.width, r.height);
            if constexpr (std::is_same_v<R, SetZoom>) return set_zoom(s.view, r.zoom);
            if constexpr (std::is_same_v<R, LoadKernel>) load_kernel(t, r.path);
            if constexpr (std::is_same_v<R, ReplaceKernel>) offer_replacement(t, r.text, r.confirmed);
            if constexpr (std::is_same_v<R, RestoreVersion>) restore_version(t, r.path);
            if constexpr (std::is_same_v<R, UndoReplace>) undo_replace(t);
            if constexpr (std::is_same_v<R, SaveKernel>) save_then(t, r);
            if constexpr (std::is_same_v<R, CompileKernel>) s.kernel.compile_wanted = true;
            if constexpr (std::is_same_v<R, StartTuner>) start_tuner(t);
            if constexpr (std::is_same_v<R, CancelTuner>) cancel_tuner(t);
            if constexpr (std::is_same_v<R, StartRecording>) t.recorder.start(s, t.messages, t.painter);
            if constexpr (std::is_same_v<R, CancelRecording>) t.recorder.cancel();
            if constexpr (std::is_same_v<R, Quit>) quit(t, r.ask_first);
            return true;
        },
        request);
}

} // namespace

void carry_out_requests(Requests& requests, RequestTargets& targets) {
    for (Request& r : requests.take())
        if (!carry_out(targets, r)) requests.push(std::move(r));
}

bool compile_wanted_kernel(UiState& s, FramePainter& painter) {
    KernelEditorState& k = s.kernel;
    // The op selected first, or a backend whose compiler has not seen the kernel that compiled.
    if (op_registry()[s.job.op].user_code && (!k.compiled_once || (!painter.has_user_kernel() && k.last_ok == true)))
        k.compile_wanted = true;
    if (!std::exchange(k.compile_wanted, false)) return false;
    k.compiled_once = true;
    const KernelCompile result = painter.compile_user_kernel(k.source, k.file_name, k.mode);
    k.last_ok = result.ok, k.log = result.log, k.target = result.target, k.compile_ms = result.milliseconds;
    if (result.ok) k.ran_mode = result.mode;
    k.error_lines = error_lines(k.log, k.file_name);
    return result.ok;
}

bool start_kernel_editor(KernelEditorState& k, Messages& messages, const std::string& kernel_path,
                         const std::string& kernel_source, const std::string& autosave, const AutosaveOpening& found) {
    const auto data_dir = user_data_dir();
    k.fallback_path = data_dir ? (*data_dir / "kernel.cu").string() : std::string("kernel.cu");
    set_path_field(k.path, kernel_path);
    bool restored = false;
    if (!kernel_source.empty()) { // --kernel's file, or a preset's source
        k.source = kernel_source, k.file_name = kernel_path.empty() ? "preset.cu" : file_name_of(kernel_path);
        k.origin_path = kernel_path;
    } else if (found.text) {
        k.source = *found.text, k.file_name = file_name_of(autosave), k.only_in_autosave = restored = true;
        messages.info(Topic::KernelFile,
                      "restored your last session's kernel (" + autosave + "); the Starter menu starts afresh");
    } else {
        load_starter(k, default_starter());
        k.compile_wanted = false; // the op compiles it when first shown
    }
    k.saved_source = k.source;
    return restored;
}

} // namespace kc
