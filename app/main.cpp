// kcanvas: CUDA kernels paint an OpenGL canvas live, driven by a Dear ImGui panel.
#include <fmt/format.h>

#include <cstdio>

#include "app/cli/headless.h"
#include "app/cli/options.h"
#include "app/cli/record.h"
#include "app/cli/version.h"
#include "app/core/gpu_list.h"
#include "app/script/ui_script.h"
#include "app/window/windowed.h"

namespace {

// Runs what the command line asks for: a command (record, bench), an answer (--version,
// --list-gpus, --save-preset, --print-command), else the picture headless or in the window. With
// --headless the answer comes first and the picture is still rendered (and written to --out).
int run(const kc::Options& o) {
    if (o.record) return kc::run_record(*o.record, o); // it ignores the top level's other flags, as ever
    if (o.lesson_command) return kc::run_lesson_command(*o.lesson_command, o.gpu);
    if (o.exercise_command) return kc::run_exercise_command(*o.exercise_command, o.gpu);
    if (o.version) return std::fputs(kc::version_report().c_str(), stdout) < 0 ? 1 : 0;
    if (o.list_gpus) return kc::print_gpu_list();
    if (o.bench) return kc::run_bench(*o.bench);
    if (!o.save_preset.empty() || o.print_command) {
        const int code = kc::save_preset_or_print_command(o);
        if (code != 0 || !o.headless) return code;
    }
    return o.headless ? kc::run_headless(o) : kc::run_windowed(o);
}

} // namespace

int main(int argc, char** argv) {
    auto parsed = kc::parse_options(argc, argv);
    if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
    try {
        return run(std::get<kc::Options>(parsed));
    } catch (const kc::ScriptError& e) { // a script that cannot run as written is bad input
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
}
