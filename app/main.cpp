// kcanvas: CUDA kernels paint an OpenGL canvas live, driven by a Dear ImGui panel.
#include <fmt/format.h>

#include <cstdio>
#include <string_view>

#include "app/cli/headless.h"
#include "app/cli/options.h"
#include "app/cli/record.h"
#include "app/cli/version.h"
#include "app/core/gpu_list.h"
#include "app/script/ui_script.h"
#include "app/window/windowed.h"

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "record") return kc::run_record_command(argc, argv);
    auto parsed = kc::parse_options(argc, argv);
    if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
    const kc::Options& options = std::get<kc::Options>(parsed);
    try {
        if (options.version) return std::fputs(kc::version_report().c_str(), stdout) < 0 ? 1 : 0;
        if (options.list_gpus) return kc::print_gpu_list();
        if (options.bench) return kc::run_bench(*options.bench);
        if (!options.save_preset.empty() || options.print_command) return kc::save_preset_or_print_command(options);
        return options.headless ? kc::run_headless(options) : kc::run_windowed(options);
    } catch (const kc::ScriptError& e) { // a script that cannot run as written is bad input
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "kcanvas: {}\n", e.what());
        return 1;
    }
}
