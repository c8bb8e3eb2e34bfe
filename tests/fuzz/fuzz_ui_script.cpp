// libFuzzer target: the --script parser (kc::UiScript::from_text) on arbitrary text, then every
// command it parsed run as far as it goes without a window: the state verbs parse their arguments
// into a UiState, the input verbs parse theirs and stop at "no widget log" where they need a
// drawn control. A malformed command must be a ScriptError: never a crash, hang or UB. Built with
// ASan and UBSan by scripts/fuzz.sh (-DKC_FUZZ=ON); inputs that crash become tests in
// tests/cpu/test_script_input.cpp.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "app/script/ui_script.h"
#include "app/ui/ui_state.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // status, print and the input verbs write to stdout: send it nowhere (libFuzzer uses stderr).
    if (!std::freopen("/dev/null", "w", stdout)) return 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    kc::UiScript script = kc::UiScript::from_text("fuzz.txt", text);
    kc::UiState state;
    kc::Requests requests; // what the script asks of the window: dropped each step, but for quit
    kc::Messages messages;
    kc::UiScript::Hooks hooks;
    // No window: saving pictures is "done", so the verbs around them still run.
    hooks.save_canvas = [](const std::string&) { return std::optional<std::string>(); };
    hooks.save_window = [](const std::string&) { return std::optional<std::string>(); };
    hooks.tuner_status = [] { return std::string("tuner: idle\n"); };
    // Each step runs commands until one waits; a script error ends the run, as it ends the app.
    for (std::size_t steps = 0; steps <= size && !script.done(); ++steps) {
        try {
            script.step(state, requests, messages, hooks);
            if (requests.pending<kc::request::Quit>()) return 0;
            requests.take();
        } catch (const kc::ScriptError&) {
            return 0;
        }
        script.skip_pending();
    }
    return 0;
}
