// libFuzzer target: kc::parse_options on arbitrary argv. The input is split into words on NUL and
// whitespace, "kcanvas" goes in front, and the parser must return Options or an exit code: never
// crash, hang or hit UB. Built with ASan and UBSan by scripts/fuzz.sh (-DKC_FUZZ=ON); inputs that
// crash become tests in tests/cpu/test_cli.cpp.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/options.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // --help and the error messages go nowhere; libFuzzer reports on stderr through its own fd.
    if (!std::freopen("/dev/null", "w", stdout)) return 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words{"kcanvas"};
    std::string word;
    for (std::size_t i = 0; i <= size; ++i) {
        const char ch = i < size ? char(data[i]) : '\0';
        if (ch == '\0' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f') {
            if (!word.empty()) words.push_back(word), word.clear();
        } else {
            word += ch;
        }
    }
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const auto result = kc::parse_options(int(words.size()), argv.data());
    if (const auto* code = std::get_if<int>(&result); code && *code != 0 && *code != 2) __builtin_trap();
    if (const auto* o = std::get_if<kc::Options>(&result); o && !o->bench) (void)kc::job_from_options(*o);
    return 0;
}
