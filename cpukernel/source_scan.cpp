#include "cpukernel/source_scan.h"

#include <fmt/format.h>

#include <cctype>

namespace kc {

namespace {

constexpr std::string_view kWarpIntrinsics[] = {"__shfl_sync",
                                                "__shfl_up_sync",
                                                "__shfl_down_sync",
                                                "__shfl_xor_sync",
                                                "__ballot_sync",
                                                "__any_sync",
                                                "__all_sync",
                                                "__uni_sync",
                                                "__match_any_sync",
                                                "__match_all_sync",
                                                "__activemask",
                                                "__syncwarp",
                                                "__reduce_add_sync",
                                                "__reduce_min_sync",
                                                "__reduce_max_sync",
                                                "__reduce_and_sync",
                                                "__reduce_or_sync",
                                                "__reduce_xor_sync",
                                                "__shfl",
                                                "__shfl_up",
                                                "__shfl_down",
                                                "__shfl_xor",
                                                "__ballot",
                                                "__any",
                                                "__all"};

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

SourceScan scan_source(std::string_view s, std::string_view file_name) {
    SourceScan scan;
    int line = 1;
    std::size_t i = 0;
    auto skip_quoted = [&](char quote) {
        for (++i; i < s.size() && s[i] != quote && s[i] != '\n'; ++i)
            if (s[i] == '\\') ++i;
        if (i < s.size() && s[i] == quote) ++i;
    };
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            ++line, ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            for (i += 2; i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/'); ++i)
                line += s[i] == '\n';
            i = i < s.size() ? i + 2 : i;
        } else if (c == '"' || c == '\'') {
            skip_quoted(c);
        } else if (identifier_char(c)) {
            const std::size_t start = i;
            while (i < s.size() && identifier_char(s[i])) ++i;
            const std::string_view word = s.substr(start, i - start);
            if (word.starts_with("__syncthreads")) scan.barriers = true;
            for (std::string_view w : kWarpIntrinsics)
                if (word == w && !scan.refusal)
                    scan.refusal = fmt::format(
                        "{}({}): error: {}: warp intrinsics do not run on the CPU backend (kcanvas runs a warp's "
                        "threads one after another, not in lockstep); share values through __shared__ memory and "
                        "__syncthreads(), or run this kernel on a GPU",
                        file_name, line, word);
        } else {
            ++i;
        }
    }
    return scan;
}

} // namespace kc
