#pragma once
// What the panel, the keys and scripts can ask the window for, as typed requests: each is pushed
// where it is asked and carried out in one place between frames (window/requests.cpp), so this
// list is the whole of what can be asked. Requests without arguments are also commands with a
// name (command_request), the one table behind key bindings, script verbs and buttons.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "app/core/kernel_editor.h"
#include "render/backend.h"

namespace kc {

namespace request {
struct ResizeCanvas { // the size fields, a preset, a script's `size`
    int width, height;
};
struct FitCanvasToImage {}; // "Canvas size = image A"
struct LoadImage {          // into slot 0 (A) or 1 (B): the path field, a drop, a preset
    int slot;
    std::string path;  // a bare name is looked up among the shipped samples, as --image does
    std::string why{}; // said after "loaded ...": why kcanvas chose this picture itself
};
struct ClearImage {
    int slot;
};
struct SaveCanvas {}; // as kcanvas-<op>-<time>.png in the Pictures folder (the button, F12)
struct SetBackend {
    Backend backend;
};
struct SetPresent {
    Present present;
};
struct SetVsync {
    bool on;
};
struct ResizeWindow { // scripts: as a person drags the window's corner (points)
    int width, height;
};
struct SetZoom { // a preset's zoom of the canvas (screen points per canvas pixel); 0: fit
    double zoom;
};
struct LoadKernel { // a .cu file into the editor, then compiled (asking first before unsaved text goes)
    std::string path;
};
struct ReplaceKernel { // a starter or a preset's source into the editor (asking first, as LoadKernel)
    KernelText text;
    bool confirmed = false; // the "Replace the kernel?" dialog's Discard: replace without asking
};
struct RestoreVersion { // an earlier version (autosave.h) into the editor (asking first, as LoadKernel)
    std::string path;
};
struct UndoReplace {}; // the editor's text before the last replacement, back (Undo replace)
struct SaveKernel {    // the editor's text to `path` (empty: the data dir's kernel.cu)
    std::string path;
    bool then_quit = false;    // the "Unsaved kernel" dialog's Save: quit once saved
    bool then_replace = false; // the "Replace the kernel?" dialog's Save: then the waiting replacement
};
struct CompileKernel {};
struct StartTuner {}; // "Find the fastest block"
struct CancelTuner {};
struct StartRecording {};  // the Record section's recording, with its settings
struct CancelRecording {}; // ... stopped, keeping nothing
struct Quit {              // the close button and Ctrl+Q ask first about unsaved edits; Discard and scripts do not
    bool ask_first = true;
};
} // namespace request

using Request = std::variant<request::ResizeCanvas, request::FitCanvasToImage, request::LoadImage, request::ClearImage,
                             request::SaveCanvas, request::SetBackend, request::SetPresent, request::SetVsync,
                             request::ResizeWindow, request::SetZoom, request::LoadKernel, request::ReplaceKernel,
                             request::RestoreVersion, request::UndoReplace, request::SaveKernel, request::CompileKernel,
                             request::StartTuner, request::CancelTuner, request::StartRecording,
                             request::CancelRecording, request::Quit>;

// Requests in the order they were asked, until the frame loop takes them.
class Requests {
public:
    void push(Request r) { queue_.push_back(std::move(r)); }
    std::vector<Request> take() { return std::exchange(queue_, {}); }
    bool empty() const { return queue_.empty(); }
    template <class T>
    bool pending() const {
        for (const Request& r : queue_)
            if (std::holds_alternative<T>(r)) return true;
        return false;
    }

private:
    std::vector<Request> queue_;
};

// The named commands: requests that take no argument, by the name key bindings and script verbs
// use ("save-canvas", "quit", "compile", "tune", "tune-cancel", "fit-canvas"). nullopt: no such command.
struct Command {
    std::string_view name;
    std::string_view help;
    Request request;
};
const std::vector<Command>& commands();
std::optional<Request> command_request(std::string_view name);

} // namespace kc
