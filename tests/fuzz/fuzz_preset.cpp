// libFuzzer target: kc::parse_preset on arbitrary text (issue 24: a value nested 80,000 deep
// crashed it). A bad preset must be an error message, short and escaped: never a crash, hang or
// UB. A preset that reads is written back and read again, and its command line built. Built with
// ASan and UBSan by scripts/fuzz.sh (-DKC_FUZZ=ON); inputs that crash become tests in
// tests/cpu/test_presets.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "app/core/preset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    kc::Preset preset;
    std::vector<std::string> warnings;
    if (const auto e = kc::parse_preset(text, preset, warnings)) {
        if (e->size() > 1000) __builtin_trap(); // a message quotes a value's prefix, not the value
        for (char c : *e)
            if (c == '\x1b') __builtin_trap(); // nothing raw for the terminal
        return 0;
    }
    (void)kc::command_line(preset);
    kc::Preset again;
    if (kc::parse_preset(kc::preset_json(preset), again, warnings)) __builtin_trap(); // what it writes it reads
    return 0;
}
