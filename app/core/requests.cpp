#include "app/core/requests.h"

namespace kc {

namespace {
// One command a call, not one initializer list of variants: GCC took minutes and gigabytes at -O3
// to compile the list's element copies and their cleanups.
[[gnu::noinline]] void add(std::vector<Command>& table, std::string_view name, std::string_view help, Request request) {
    table.push_back({name, help, std::move(request)});
}
} // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table = [] {
        std::vector<Command> t;
        add(t, "save-canvas", "save the canvas as a PNG in the Pictures folder", request::SaveCanvas{});
        add(t, "quit", "quit, asking first about unsaved edits", request::Quit{true});
        add(t, "compile", "compile the editor's kernel", request::CompileKernel{});
        add(t, "undo-replace", "bring back the editor's text before the last starter, file or version replaced it",
            request::UndoReplace{});
        add(t, "tune", "find the fastest block shape", request::StartTuner{});
        add(t, "tune-cancel", "stop finding the fastest block shape", request::CancelTuner{});
        add(t, "fit-canvas", "make the canvas image A's size", request::FitCanvasToImage{});
        add(t, "record", "start recording with the Record section's settings", request::StartRecording{});
        add(t, "record-cancel", "stop the recording, keeping nothing", request::CancelRecording{});
        return t;
    }();
    return table;
}

std::optional<Request> command_request(std::string_view name) {
    for (const Command& c : commands())
        if (c.name == name) return c.request;
    return std::nullopt;
}

} // namespace kc
