#include "app/core/requests.h"

namespace kc {

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"save-canvas", "save the canvas as a PNG in the Pictures folder", request::SaveCanvas{}},
        {"quit", "quit, asking first about unsaved edits", request::Quit{true}},
        {"compile", "compile the editor's kernel", request::CompileKernel{}},
        {"undo-replace", "bring back the editor's text before the last starter, file or version replaced it",
         request::UndoReplace{}},
        {"tune", "find the fastest block shape", request::StartTuner{}},
        {"tune-cancel", "stop finding the fastest block shape", request::CancelTuner{}},
        {"fit-canvas", "make the canvas image A's size", request::FitCanvasToImage{}},
        {"record", "start recording with the Record section's settings", request::StartRecording{}},
        {"record-cancel", "stop the recording, keeping nothing", request::CancelRecording{}},
    };
    return table;
}

std::optional<Request> command_request(std::string_view name) {
    for (const Command& c : commands())
        if (c.name == name) return c.request;
    return std::nullopt;
}

} // namespace kc
