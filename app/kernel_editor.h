#pragma once
// The kernel editor's text handling that needs no window: starters loaded without their answer,
// the compile log's line references, the dirty check. (The ImGui side is kernel_panel.cpp.)
#include <string>
#include <string_view>
#include <vector>

#include "app/ui_state.h"
#include "gpu/user_kernel.h"

namespace kc {

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
