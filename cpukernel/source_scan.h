#pragma once
// What the CPU backend must know of the user's source before compiling it: whether it has a
// barrier (its threads then run as fibers) and whether it uses a warp intrinsic, which the CPU
// does not emulate (a warp's threads do not run in lockstep there), with the line.
#include <optional>
#include <string>
#include <string_view>

namespace kc {

struct SourceScan {
    bool barriers = false; // __syncthreads, __syncthreads_count/_and/_or
    // The first warp intrinsic, in words ("kernel.cu(12): error: __shfl_down_sync: ..."), or nullopt.
    std::optional<std::string> refusal;
};

// Identifiers in comments and string literals do not count.
SourceScan scan_source(std::string_view source, std::string_view file_name);

} // namespace kc
