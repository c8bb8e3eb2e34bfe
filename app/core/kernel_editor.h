#pragma once
// The kernel editor's text handling that needs no window: starters loaded without their answer,
// the compile log's line references, the dirty check. (The ImGui side is kernel_panel.cpp.)
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/user_kernel.h"

namespace kc {

// A whole text for the editor: what replaces its text (a starter, a file, an earlier version), or
// what a replacement took out (for "Undo replace").
struct KernelText {
    std::string source;
    std::string answer;    // a starter's answer
    std::string file_name; // for NVRTC's log
    std::string what;      // how the editor's messages name it: "the starter Fix me", "/home/me/x.cu"
    bool saved = true;     // it is in a file as it is (a starter, a loaded file): nothing to keep when it goes
    std::string path;      // the file it was loaded from; empty: none (a starter, a preset's, an earlier version)
};

// The user's kernel (op user_kernel): the editor's text and what the last compile said.
struct KernelEditorState {
    std::string source;       // the editor's text
    std::string saved_source; // the text as last loaded or saved: edits since then are unsaved
    std::string answer;       // a starter's answer (fix_me.cu's end), behind "Show answer"
    bool show_answer = false;
    std::string file_name = "kernel.cu";   // names it in NVRTC's log: a starter's or a loaded file's name
    std::array<char, 1024> path{};         // the panel's file field (Load / Save)
    std::string fallback_path;             // where Save goes with an empty file field (<data dir>/kernel.cu)
    bool compile_wanted = false;           // compile `source` once a CUDA backend runs (load_starter, a preset)
    KernelMode mode = KernelMode::Checked; // what the next compile makes: checked views or raw pointers
    std::optional<KernelMode> ran_mode;    // the mode of the kernel that runs (the last good compile's)
    bool compiled_once = false;            // the op compiles by itself the first time it is shown
    std::optional<bool> last_ok;           // the last compile's outcome; nullopt before the first
    std::string log;                       // its NVRTC log, numbered as the editor's lines
    std::vector<int> error_lines;          // the editor's lines the log reports errors on
    std::string target;                    // "sm_90"
    double compile_ms = 0.0;
    bool beside_canvas = true;          // the editor in a window of its own between the panel and the canvas
    std::string origin_path;            // the file the text was loaded from or saved to; empty: none
    bool text_replaced = false;         // set by replace_text: the code box drops its own copy and undo stack
    bool refocus = false;               // Ctrl+Enter compiled: the code box takes the keyboard back next frame
    std::string autosave_path;          // where this session autosaves (autosave.h); empty: nowhere
    int goto_line = 0;                  // a clicked error line: the editor puts its cursor there next frame (1-based)
    bool only_in_autosave = false;      // restored from the autosave, not yet changed nor saved: in no other file
    std::optional<KernelText> pending;  // a replacement waiting for the "Replace the kernel?" dialog
    std::optional<KernelText> replaced; // what the last replacement took out: "Undo replace" brings it back

    bool unsaved() const { return source != saved_source; }
    // Replacing the text would lose work: it is not in a file the user has (unsaved, or only in the autosave).
    bool worth_keeping() const { return unsaved() || only_in_autosave; }
    // The editor's text as a KernelText (the outgoing side of a replacement).
    KernelText current() const {
        return {source, answer, file_name, "the editor's text", !worth_keeping(), worth_keeping() ? "" : origin_path};
    }
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

// A starter as the editor shows it (its answer apart, behind "Show answer").
KernelText starter_text(const StarterKernel& starter);
// Puts a starter in the editor (its answer behind "Show answer") and asks for a compile.
void load_starter(KernelEditorState& k, const StarterKernel& starter);

// Where line `line` (1-based) of `text` starts and ends (before its '\n'), as byte offsets; past
// the last line: the end of the text.
std::pair<int, int> line_span(std::string_view text, int line);

// Puts `text` in the editor and asks for a compile; what it replaces becomes `k.replaced` (Undo replace).
void replace_text(KernelEditorState& k, KernelText text);
// "Undo replace": swaps the text the last replacement took out back in (again: redo). False: nothing to undo.
bool undo_replace(KernelEditorState& k);

} // namespace kc
