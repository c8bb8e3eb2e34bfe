#pragma once
// The kernel editor's text handling that needs no window: starters loaded without their answer,
// the compile log's line references, the dirty check. (The ImGui side is kernel_panel.cpp.)
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/user_kernel.h"

namespace kc {

// The user's kernel (op user_kernel): the editor's text and what the last compile said.
struct KernelEditorState {
    std::string source;       // the editor's text
    std::string saved_source; // the text as last loaded or saved: edits since then are unsaved
    std::string answer;       // a starter's answer (fix_me.cu's end), behind "Show answer"
    bool show_answer = false;
    std::string file_name = "kernel.cu"; // names it in NVRTC's log: a starter's or a loaded file's name
    std::array<char, 1024> path{};       // the panel's file field (Load / Save)
    std::string fallback_path;           // where Save goes with an empty file field (<data dir>/kernel.cu)
    bool compile_wanted = false;         // compile `source` once a CUDA backend runs (load_starter, a preset)
    bool compiled_once = false;          // the op compiles by itself the first time it is shown
    std::optional<bool> last_ok;         // the last compile's outcome; nullopt before the first
    std::string log;                     // its NVRTC log, numbered as the editor's lines
    std::vector<int> error_lines;        // the editor's lines the log reports errors on
    std::string target;                  // "sm_90"
    double compile_ms = 0.0;
    bool own_window = false; // edit in a window of its own, wider than the panel

    bool unsaved() const { return source != saved_source; }
};

// A source split before its trailing block of comment lines (fix_me.cu's answer): `code` ends
// with the last line that is not a comment; `answer` is that block as prose, without its "//"
// marks, its lines joined into paragraphs ("\n\n" between them); empty when there is none.
struct SplitSource {
    std::string code, answer;
};
SplitSource split_trailing_comments(std::string_view source);

// The editor's line numbers the compile log reports errors on ("fix_me.cu(7): error: ..." -> 7),
// in log order without repeats; lines of other files (the prelude) are left out.
std::vector<int> error_lines(std::string_view log, std::string_view file_name);

// Puts a starter in the editor (its answer behind "Show answer") and asks for a compile.
void load_starter(KernelEditorState& k, const StarterKernel& starter);

} // namespace kc
